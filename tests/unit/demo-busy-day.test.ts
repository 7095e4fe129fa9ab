// The demo's busy day, planned for a bank whose business date is each day of a week: one business
// day, and only one, holds more than 520 entries of a customer's SEN account, whatever the weekday.
import { describe, expect, it } from "vitest";
import { type DemoAccounts, demoBusyDay, planDemoLedger } from "../../bank/sandbox/demo.ts";
import { isBusinessDay } from "../../lib/bank-api/business-days.ts";
import { addDays } from "../../lib/bank-api/dates.ts";

const ACCOUNTS: DemoAccounts = { dda: "100", senOps: "200", senReserve: "300", globex: "400" };
const MONDAY = "2026-11-23";
const WEEK = Array.from({ length: 7 }, (_, i) => addDays(MONDAY, i));

describe("the demo's busy day", () => {
  it.each(WEEK)("is one business day of more than 520 entries when the bank's today is %s", (today) => {
    const plan = planDemoLedger(today, ACCOUNTS);
    const perDay = new Map<string, number>();
    for (const e of plan.entries) {
      if (e.account !== ACCOUNTS.senOps && e.account !== ACCOUNTS.senReserve) continue;
      const key = `${e.account} ${e.date}`;
      perDay.set(key, (perDay.get(key) ?? 0) + 1);
    }
    const busy = [...perDay].filter(([, n]) => n > 520).map(([key]) => key.split(" ")[1]);
    expect(busy).toEqual([plan.busyDay]);
    expect(isBusinessDay(plan.busyDay)).toBe(true);
    expect(plan.busyDay < addDays(today, -4)).toBe(true);
    expect(plan.busyDay >= addDays(today, -9)).toBe(true);
    expect(plan.busyDay >= plan.start).toBe(true);
  });

  it("is the last business day at least five days back", () => {
    // Friday's five days back is a Sunday: the Friday before. Saturday's is a Monday.
    expect(demoBusyDay("2026-11-27")).toBe("2026-11-20");
    expect(demoBusyDay("2026-11-28")).toBe("2026-11-23");
    expect(demoBusyDay("2026-11-29")).toBe("2026-11-24");
    expect(demoBusyDay("2026-11-23")).toBe("2026-11-18");
    // Thanksgiving (Thursday 2026-11-26) is a Fed holiday: Tuesday's five days back is the Wednesday before.
    expect(demoBusyDay("2026-12-01")).toBe("2026-11-25");
  });

  it("plans no entry on a weekend or a Fed holiday and keeps every running balance at or above zero", () => {
    for (const today of WEEK) {
      const plan = planDemoLedger(today, ACCOUNTS);
      // The opening deposits land on the first day, whatever it is; every other entry is on a business day.
      const offDays = plan.entries.filter((e) => e.date !== plan.start && !isBusinessDay(e.date));
      expect([...new Set(offDays.map((e) => e.date))]).toEqual([]);
      expect(plan.entries.filter((e) => e.after < 0)).toEqual([]);
    }
    // Seven plans of 90 days: well under a second on a quiet machine, seconds on a loaded one.
  }, 60_000);
});
