// The Fed business-day calendar against the Fed's published holiday schedule for 2026-2028, and its rolls.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addBusinessDays,
  businessDaysBetween,
  fedHolidays,
  firstBusinessDayOfMonth,
  isBusinessDay,
  lastBusinessDayOfMonth,
  rollToBusinessDay,
} from "../../lib/bank-api/business-days.ts";
import { addDays } from "../../lib/bank-api/dates.ts";

// Typed from the Federal Reserve's holiday schedule (frbservices.org, "Holidays Observed by the Federal
// Reserve"): a holiday on a Saturday is not observed (Reserve Banks open the Friday before); on a
// Sunday, the Monday after.
const FED_PUBLISHED: Record<number, string[]> = {
  2026: [
    "2026-01-01",
    "2026-01-19",
    "2026-02-16",
    "2026-05-25",
    "2026-06-19",
    "2026-09-07",
    "2026-10-12",
    "2026-11-11",
    "2026-11-26",
    "2026-12-25",
  ],
  2027: [
    "2027-01-01",
    "2027-01-18",
    "2027-02-15",
    "2027-05-31",
    "2027-07-05",
    "2027-09-06",
    "2027-10-11",
    "2027-11-11",
    "2027-11-25",
  ],
  2028: [
    "2028-01-17",
    "2028-02-21",
    "2028-05-29",
    "2028-06-19",
    "2028-07-04",
    "2028-09-04",
    "2028-10-09",
    "2028-11-23",
    "2028-12-25",
  ],
};

const dayIn2026to2028 = fc.integer({ min: 0, max: 1095 }).map((n) => addDays("2026-01-01", n));

describe("Fed business days", () => {
  it("observes exactly the Fed's published holidays in 2026, 2027 and 2028", () => {
    for (const year of [2026, 2027, 2028]) expect(fedHolidays(year)).toEqual(FED_PUBLISHED[year]);
  });

  it("keeps the Fed open on the Friday before a Saturday holiday, unlike federal offices", () => {
    for (const d of ["2026-07-03", "2027-06-18", "2027-12-24", "2027-12-31", "2028-11-10"])
      expect(isBusinessDay(d)).toBe(true);
  });

  it("counts a weekday business exactly when it is not a published holiday", () => {
    fc.assert(
      fc.property(dayIn2026to2028, (d) => {
        const weekday = new Date(`${d}T00:00:00Z`).getUTCDay();
        const expected = weekday !== 0 && weekday !== 6 && !FED_PUBLISHED[Number(d.slice(0, 4))].includes(d);
        expect(isBusinessDay(d)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("rolls to the nearest business day in the chosen direction, and never past one", () => {
    fc.assert(
      fc.property(dayIn2026to2028, fc.constantFrom("following", "preceding" as const), (d, roll) => {
        const r = rollToBusinessDay(d, roll as "following" | "preceding");
        expect(isBusinessDay(r)).toBe(true);
        if (isBusinessDay(d)) expect(r).toBe(d);
        else if (roll === "following") expect(r > d).toBe(true);
        else expect(r < d).toBe(true);
        // No business day lies strictly between the day and where it rolled.
        const [lo, hi] = r < d ? [r, d] : [d, r];
        for (let x = addDays(lo, 1); x < hi; x = addDays(x, 1)) expect(isBusinessDay(x)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("rolls named cases: a Saturday Independence Day, Thanksgiving, a New Year's Day on Saturday", () => {
    expect(rollToBusinessDay("2026-07-04", "following")).toBe("2026-07-06");
    expect(rollToBusinessDay("2026-07-04", "preceding")).toBe("2026-07-03");
    expect(rollToBusinessDay("2026-11-26", "following")).toBe("2026-11-27");
    expect(rollToBusinessDay("2028-01-01", "following")).toBe("2028-01-03");
    expect(rollToBusinessDay("2027-12-31", "following")).toBe("2027-12-31");
  });

  it("finds first and last business days of months and counts business days", () => {
    expect(firstBusinessDayOfMonth(2026, 1)).toBe("2026-01-02");
    expect(lastBusinessDayOfMonth(2026, 1)).toBe("2026-01-30");
    expect(firstBusinessDayOfMonth(2026, 11)).toBe("2026-11-02");
    expect(lastBusinessDayOfMonth(2027, 12)).toBe("2027-12-31");
    expect(addBusinessDays("2026-11-25", 1)).toBe("2026-11-27");
    expect(addBusinessDays("2026-11-27", -1)).toBe("2026-11-25");
  });

  it("counts business days from a weekend day as from the business day around it", () => {
    // Saturday 2026-11-28: the next business day is Monday, the previous Friday, whatever the weekday.
    expect(addBusinessDays("2026-11-28", 1)).toBe("2026-11-30");
    expect(addBusinessDays("2026-11-29", 1)).toBe("2026-11-30");
    expect(addBusinessDays("2026-11-28", -1)).toBe("2026-11-27");
    expect(addBusinessDays("2026-11-28", 2)).toBe("2026-12-01");
    expect(addBusinessDays("2026-11-28", 0)).toBe("2026-11-30");
    // On every day of a week, one step forward and one back land on business days either side.
    for (let i = 0; i < 14; i++) {
      const day = addDays("2026-11-21", i);
      const next = addBusinessDays(day, 1);
      const previous = addBusinessDays(day, -1);
      expect(isBusinessDay(next) && next > day && isBusinessDay(previous) && previous < day).toBe(true);
      expect(businessDaysBetween(addDays(day, 1), addDays(next, -1))).toEqual([]);
      expect(businessDaysBetween(addDays(previous, 1), addDays(day, -1))).toEqual([]);
    }
  });

  it("refuses text that is not a day", () => {
    expect(() => isBusinessDay("2026-7-4")).toThrow(RangeError);
  });
});
