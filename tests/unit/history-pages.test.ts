import { describe, expect, it } from "vitest";
import { daysRead, historyWindows } from "../../lib/history/pages.ts";

describe("history pages", () => {
  it("reads a range of a month or less in one page", () => {
    expect(historyWindows("2026-11-01", "2026-11-30", "D")).toEqual([
      { from: "2026-11-01", to: "2026-11-30" },
    ]);
  });

  it("reads a year newest first, month-sized windows from the end, covering every day once", () => {
    const w = historyWindows("2026-01-01", "2026-12-31", "D");
    expect(w[0]).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(w[w.length - 1].from).toBe("2026-01-01");
    expect(daysRead(w, w.length)).toBe(365);
    for (let i = 1; i < w.length; i++) expect(w[i].to < w[i - 1].from).toBe(true);
  });

  it("reads oldest first from the start", () => {
    const w = historyWindows("2026-01-01", "2026-03-15", "A");
    expect(w).toEqual([
      { from: "2026-01-01", to: "2026-01-31" },
      { from: "2026-02-01", to: "2026-03-03" },
      { from: "2026-03-04", to: "2026-03-15" },
    ]);
    expect(daysRead(w, 1)).toBe(31);
  });
});
