// Payment schedules as RFC 5545 rules: every occurrence on a Fed business day, rolled as chosen, count and end honoured.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBusinessDay, lastBusinessDayOfMonth } from "../../lib/bank-api/business-days.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import {
  describeSchedule,
  fromRule,
  nextOccurrence,
  occurrencesBetween,
  type Schedule,
  type SchedulePattern,
  ScheduleSchema,
  toRule,
  WEEKDAYS,
} from "../../lib/calendar/recurrence.ts";

const START = "2026-01-01";
const END = "2028-12-31";

const pattern: fc.Arbitrary<SchedulePattern> = fc.oneof(
  fc.constant({ kind: "once" as const }),
  fc.record({
    kind: fc.constant("weekly" as const),
    everyWeeks: fc.integer({ min: 1, max: 6 }),
    weekday: fc.constantFrom(...WEEKDAYS),
  }),
  fc.record({ kind: fc.constant("monthly-day" as const), day: fc.integer({ min: 1, max: 31 }) }),
  fc.constant({ kind: "monthly-first-business-day" as const }),
  fc.constant({ kind: "monthly-last-business-day" as const }),
);
const day = (lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map((n) => addDays(START, n));
const schedule: fc.Arbitrary<Schedule> = fc
  .record({
    startsOn: day(0, 700),
    pattern,
    count: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
    untilAfter: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
    roll: fc.constantFrom("following" as const, "preceding" as const),
  })
  .map(({ untilAfter, ...s }) => ({
    ...s,
    until: untilAfter === null ? null : addDays(s.startsOn, untilAfter),
  }));

/** A one-off payment dated on a Fed holiday, its (dropped) end date the same day: paid the next day. */
const ONCE_ON_NEW_YEAR = {
  startsOn: "2026-01-01",
  pattern: { kind: "once" },
  count: null,
  roll: "following",
  until: "2026-01-01",
} as const;

describe("recurrence", () => {
  it("puts every occurrence in 2026-2028 on a Fed business day, rolled as chosen, within count and end", () => {
    fc.assert(
      fc.property(schedule, (s) => {
        const rule = toRule(s);
        const occ = occurrencesBetween(rule, s.roll, START, END);
        const days = occ.map((o) => o.day);
        for (const o of occ) {
          expect(isBusinessDay(o.day)).toBe(true);
          expect(o.day >= s.startsOn).toBe(true);
          // A one-off payment keeps no end date (the form drops it): only a repeating rule's end binds.
          if (s.until && s.pattern.kind !== "once") expect(o.day <= s.until).toBe(true);
          if (o.day !== o.nominal) {
            expect(isBusinessDay(o.nominal)).toBe(false);
            const roll =
              s.pattern.kind === "monthly-first-business-day"
                ? "following"
                : s.pattern.kind === "monthly-last-business-day"
                  ? "preceding"
                  : s.roll;
            expect(roll === "following" ? o.day > o.nominal : o.day < o.nominal).toBe(true);
          }
        }
        // Days strictly increase: no day is paid twice.
        for (let i = 1; i < days.length; i++) expect(days[i] > days[i - 1]).toBe(true);
        if (s.pattern.kind === "once") expect(occ.length).toBeLessThanOrEqual(1);
        else if (s.count) expect(occ.length).toBeLessThanOrEqual(s.count);
        // The form round-trips through the stored rule.
        expect(fromRule(rule, s.roll)).toEqual(
          s.pattern.kind === "once" ? { ...s, count: null, until: null } : s,
        );
      }),
      { numRuns: 400, examples: [[ONCE_ON_NEW_YEAR]] },
    );
  });

  it("honours a count exactly when nothing rolls out of range", () => {
    const s: Schedule = {
      startsOn: "2026-01-05",
      pattern: { kind: "weekly", everyWeeks: 2, weekday: "FR" },
      count: 10,
      until: null,
      roll: "following",
    };
    const occ = occurrencesBetween(toRule(s), s.roll, START, END);
    expect(occ.map((o) => o.day)).toEqual([
      "2026-01-09",
      "2026-01-23",
      "2026-02-06",
      "2026-02-20",
      "2026-03-06",
      "2026-03-20",
      "2026-04-03",
      "2026-04-17",
      "2026-05-01",
      "2026-05-15",
    ]);
  });

  it("pays on the last business day of each month, over holidays", () => {
    const s: Schedule = {
      startsOn: "2026-01-01",
      pattern: { kind: "monthly-last-business-day" },
      count: 24,
      until: null,
      roll: "following",
    };
    const occ = occurrencesBetween(toRule(s), s.roll, START, END);
    expect(occ).toHaveLength(24);
    occ.forEach((o, i) => {
      expect(o.day).toBe(lastBusinessDayOfMonth(2026 + Math.floor(i / 12), (i % 12) + 1));
    });
  });

  it("pays on day 31 in short months on their last day, and rolls a weekend day", () => {
    const s: Schedule = {
      startsOn: "2026-01-01",
      pattern: { kind: "monthly-day", day: 31 },
      count: 3,
      until: null,
      roll: "following",
    };
    // Jan 31 2026 is a Saturday: Monday Feb 2; Feb 28 a Saturday: Monday Mar 2; Mar 31 a Tuesday.
    expect(occurrencesBetween(toRule(s), s.roll, START, END)).toEqual([
      { nominal: "2026-01-31", day: "2026-02-02" },
      { nominal: "2026-02-28", day: "2026-03-02" },
      { nominal: "2026-03-31", day: "2026-03-31" },
    ]);
  });

  it("dates a single payment on the business day chosen, and finds the next occurrence", () => {
    const once: Schedule = {
      startsOn: "2026-07-04",
      pattern: { kind: "once" },
      count: null,
      until: null,
      roll: "following",
    };
    expect(occurrencesBetween(toRule(once), "following", START, END)).toEqual([
      { nominal: "2026-07-04", day: "2026-07-06" },
    ]);
    expect(nextOccurrence(toRule(once), "following", "2026-07-07")).toBeNull();
    const weekly: Schedule = {
      startsOn: "2026-11-23",
      pattern: { kind: "weekly", everyWeeks: 1, weekday: "TH" },
      count: null,
      until: null,
      roll: "following",
    };
    expect(nextOccurrence(toRule(weekly), "following", "2026-11-23")).toEqual({
      nominal: "2026-11-26",
      day: "2026-11-27",
    });
  });

  it("says the schedule in words", () => {
    expect(
      describeSchedule({
        startsOn: "2026-12-01",
        pattern: { kind: "monthly-last-business-day" },
        count: 12,
        until: "2027-12-31",
        roll: "following",
      }),
    ).toBe("Monthly on the last business day, 12 times, until Dec 31, 2027");
    expect(
      describeSchedule({
        startsOn: "2026-12-04",
        pattern: { kind: "weekly", everyWeeks: 2, weekday: "FR" },
        count: null,
        until: null,
        roll: "preceding",
      }),
    ).toBe("Every 2 weeks on Friday; a day that is not a business day moves to the one before");
    expect(
      describeSchedule({
        startsOn: "2026-07-04",
        pattern: { kind: "once" },
        count: null,
        until: null,
        roll: "following",
      }),
    ).toBe("Once, on Jul 6, 2026 (Jul 4, 2026 is not a business day)");
  });

  it("refuses an end before the start and a count of zero, naming the field", () => {
    const r = ScheduleSchema.safeParse({
      startsOn: "2026-12-01",
      pattern: { kind: "weekly", everyWeeks: 1, weekday: "MO" },
      count: 0,
      until: "2026-11-01",
      roll: "following",
    });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(paths).toContain("count");
    expect(paths).toContain("until");
  });
});
