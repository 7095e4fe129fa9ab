// The balance ahead adds up what is known to come, each kind apart: drafts and incoming wires
// waiting land today, scheduled occurrences on their day, and a sweep brings each day's end back
// into its band.
import { describe, expect, it } from "vitest";
import { firstShortfall, projectBalanceAhead, sweepMoves } from "../../lib/schedules/balance-ahead.ts";

const base = {
  account: "100",
  today: "2026-12-04", // a Friday
  availableCents: 100_000,
  businessDays: 5,
  occurrences: [],
  drafts: [],
  incomingWires: [],
  sweeps: [],
};

/** A due occurrence of an approved series paying from account 100 to 200, unless told otherwise. */
const occurrence = (
  seriesId: string,
  day: string,
  name: string,
  amountCents: number,
  over: Partial<{ fromAccount: string; counterparty: string; status: string; approved: boolean }> = {},
) => ({
  seriesId,
  nominalDay: day,
  day,
  name,
  kind: "sen" as const,
  amountCents,
  fromAccount: "100",
  counterparty: "200",
  status: "due",
  approved: true,
  ...over,
});

describe("the balance ahead", () => {
  it("counts business days only, and lands each kind on its day, apart", () => {
    const days = projectBalanceAhead({
      ...base,
      occurrences: [
        occurrence("s1", "2026-12-08", "Rent", 30_000),
        occurrence("s2", "2026-12-08", "Top-up", 5_000, { fromAccount: "300", counterparty: "100" }),
        occurrence("s3", "2026-12-09", "Paid already", 1, { status: "sent" }),
      ],
      drafts: [{ id: "d1", kind: "wire", amountCents: 20_000, fromAccount: "100", counterparty: "Acme" }],
      incomingWires: [{ paymentId: "p1", accountNumber: "100", amountCents: 7_000, originator: "Client Co" }],
    });
    expect(days.map((d) => d.day)).toEqual([
      "2026-12-04",
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
      "2026-12-10",
    ]);
    expect(days[0].byKind).toEqual({ scheduled: 0, sweep: 0, draft: -20_000, incoming_wire: 7_000 });
    expect(days[0].projectedCents).toBe(87_000);
    expect(days[2].byKind.scheduled).toBe(-25_000);
    expect(days.map((d) => d.projectedCents)).toEqual([87_000, 87_000, 62_000, 62_000, 62_000]);
  });

  it("lets an approved sweep keep the line inside its band, and ignores one waiting for approval", () => {
    const sweep = {
      id: "w1",
      name: "Band",
      account: "100",
      fundingAccount: "900",
      lowCents: 80_000,
      highCents: 90_000,
      status: "active",
    };
    const occurrences = [occurrence("s4", "2026-12-07", "Rent", 50_000)];
    const kept = projectBalanceAhead({ ...base, occurrences, sweeps: [{ ...sweep, approved: true }] });
    expect(kept.map((d) => d.projectedCents)).toEqual([90_000, 80_000, 80_000, 80_000, 80_000]);
    expect(kept[0].byKind.sweep).toBe(-10_000);
    expect(kept[1].byKind).toMatchObject({ scheduled: -50_000, sweep: 40_000 });
    const waiting = projectBalanceAhead({ ...base, occurrences, sweeps: [{ ...sweep, approved: false }] });
    expect(waiting.map((d) => d.projectedCents)).toEqual([100_000, 50_000, 50_000, 50_000, 50_000]);
  });

  it("counts a series not yet approved as waiting for approval, not as scheduled", () => {
    const days = projectBalanceAhead({
      ...base,
      occurrences: [occurrence("s5", "2026-12-07", "Payroll", 40_000, { approved: false })],
    });
    expect(days[1].byKind).toMatchObject({ scheduled: 0, draft: -40_000 });
    expect(days[1].flows[0]).toMatchObject({ label: "Payroll", kind: "draft" });
  });

  it("finds the first day below zero, or below the low alert line, with the payments out that lead there", () => {
    const days = projectBalanceAhead({
      ...base,
      occurrences: [
        occurrence("a", "2026-12-07", "Rent", 30_000),
        occurrence("b", "2026-12-08", "Payroll", 60_000),
        occurrence("c", "2026-12-10", "Tax", 50_000),
      ],
      incomingWires: [{ paymentId: "p1", accountNumber: "100", amountCents: 5_000, originator: "Client Co" }],
    });
    // 105,000 today, 75,000 on Monday, 15,000 on Tuesday, -35,000 on Thursday.
    expect(days.map((d) => d.projectedCents)).toEqual([105_000, 75_000, 15_000, 15_000, -35_000]);
    const zero = firstShortfall(days, null);
    expect(zero).toMatchObject({ day: "2026-12-10", projectedCents: -35_000, line: "zero", lineCents: 0 });
    expect(zero?.causes.map((c) => c.label)).toEqual(["Payroll", "Tax", "Rent"]);
    expect(zero?.moreCauses).toBe(0);
    const line = firstShortfall(days, 20_000);
    expect(line).toMatchObject({
      day: "2026-12-08",
      projectedCents: 15_000,
      line: "alert",
      lineCents: 20_000,
    });
    expect(line?.causes.map((c) => c.label)).toEqual(["Payroll", "Rent"]);
    expect(firstShortfall(days.slice(0, 4), 10_000)).toBeNull();
  });

  it("shows the funding account the kept account's sweep moves, the other way round, on the same days", () => {
    const sweep = {
      id: "w2",
      name: "Band",
      account: "100",
      fundingAccount: "900",
      lowCents: 80_000,
      highCents: 90_000,
      approved: true,
      status: "active",
    };
    const rent = occurrence("s6", "2026-12-07", "Rent", 50_000);
    const kept = projectBalanceAhead({ ...base, occurrences: [rent], sweeps: [sweep] });
    const moves = sweepMoves("100", kept);
    // 10,000 swept out today, 40,000 brought in on Monday.
    expect(moves.map((m) => [m.day, m.amountCents])).toEqual([
      ["2026-12-04", -10_000],
      ["2026-12-07", 40_000],
    ]);
    const funding = projectBalanceAhead({
      ...base,
      account: "900",
      availableCents: 500_000,
      occurrences: [rent],
      sweeps: [sweep],
      fundedMoves: moves,
    });
    expect(funding.map((d) => d.projectedCents)).toEqual([510_000, 470_000, 470_000, 470_000, 470_000]);
    expect(funding[1].flows).toEqual([
      expect.objectContaining({ kind: "sweep", amountCents: -40_000, label: "Band (to 100)" }),
    ]);
    // What leaves one account arrives in the other: the two together keep their total.
    for (const [i, d] of funding.entries())
      expect(d.projectedCents + kept[i].projectedCents).toBe(600_000 - (i >= 1 ? 50_000 : 0));
  });
});
