import { describe, expect, it } from "vitest";

import { auditToCsv } from "../../lib/format/audit-csv.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { formatWaited } from "../../lib/format/durations.ts";
import { startOfDay } from "../../lib/incoming-wires/queue.ts";

describe("how long a wire has waited", () => {
  const at = Date.parse("2026-11-23T12:00:00Z");
  it("reads in minutes, hours and days", () => {
    expect(formatWaited("2026-11-23T11:59:30Z", at)).toBe("just now");
    expect(formatWaited("2026-11-23T11:56:00Z", at)).toBe("4 min");
    expect(formatWaited("2026-11-23T09:55:00Z", at)).toBe("2 h 05 min");
    expect(formatWaited("2026-11-20T08:00:00Z", at)).toBe("3 d 4 h");
    expect(formatWaited("not a date", at)).toBe("just now");
  });
});

describe("the start of the business day", () => {
  it("is midnight in the business time zone, as an instant", () => {
    const now = new Date("2026-11-23T03:30:00Z"); // 22:30 on the 22nd in New York
    expect(startOfDay(now, "America/New_York").toISOString()).toBe("2026-11-22T05:00:00.000Z");
    expect(startOfDay(now, "UTC").toISOString()).toBe("2026-11-23T00:00:00.000Z");
  });
});

describe("the audit CSV", () => {
  it("has a header, one line per entry, and never a live formula", () => {
    const csv = auditToCsv([
      {
        id: 2,
        at: "2026-11-23T12:00:00.000Z",
        actorId: "u1",
        actorEmail: "approver@northwind.example",
        action: "incoming_wire.approve",
        target: "I261123ABCDEFGH",
        result: "In-Progress",
        detail: { channel: "primary", note: 'a "quoted", text' },
        ip: "127.0.0.1",
      },
      {
        id: 1,
        at: "2026-11-23T11:00:00.000Z",
        actorId: null,
        actorEmail: '=HYPERLINK("x")',
        action: "sign_in",
        target: null,
        result: "denied",
        detail: null,
        ip: null,
      },
    ]);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(["When (UTC)", "Who", "Action", "Target", "Result", "IP", "Detail"]);
    expect(rows[1].slice(0, 6)).toEqual([
      "2026-11-23T12:00:00.000Z",
      "approver@northwind.example",
      "incoming_wire.approve",
      "I261123ABCDEFGH",
      "In-Progress",
      "127.0.0.1",
    ]);
    expect(JSON.parse(rows[1][6])).toEqual({ channel: "primary", note: 'a "quoted", text' });
    expect(rows[2][1]).toBe('\'=HYPERLINK("x")');
    expect(csv.endsWith("\r\n")).toBe(true);
  });
});
