import { describe, expect, it } from "vitest";
import { dailyBalances } from "../../lib/accounts/balance-trend.ts";

const tx = (
  date: string,
  amountCents: number,
  direction: "debit" | "credit",
  availableAfterCents: number,
) => ({
  date,
  amountCents,
  direction,
  availableAfterCents,
});

describe("dailyBalances", () => {
  const oldestFirst = [
    tx("2026-11-02", 10_000, "credit", 110_000),
    tx("2026-11-02", 5_000, "debit", 105_000),
    tx("2026-11-04", 25_000, "credit", 130_000),
  ];

  it("takes the last balance of each day and carries it over days without transactions", () => {
    expect(dailyBalances(oldestFirst, "A", "2026-11-01", "2026-11-05")).toEqual([
      { day: "2026-11-01", cents: 100_000 },
      { day: "2026-11-02", cents: 105_000 },
      { day: "2026-11-03", cents: 105_000 },
      { day: "2026-11-04", cents: 130_000 },
      { day: "2026-11-05", cents: 130_000 },
    ]);
  });

  it("reads a newest-first list the same way", () => {
    expect(dailyBalances([...oldestFirst].reverse(), "D", "2026-11-01", "2026-11-05")).toEqual(
      dailyBalances(oldestFirst, "A", "2026-11-01", "2026-11-05"),
    );
  });

  it("has no points for a range without transactions", () => {
    expect(dailyBalances([], "D", "2026-11-01", "2026-11-05")).toEqual([]);
  });
});
