// The Federal Reserve's business days: weekdays that are not Fed holidays, and rolling a day onto one.
import { addDays } from "./dates.ts";

/** Where a day that is not a business day moves: to the next one, or to the one before. */
export const ROLLS = ["following", "preceding"] as const;
export type Roll = (typeof ROLLS)[number];

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

/** The nth (1-based) given weekday (0 Sunday) of a month; n = -1 is the last. */
function nthWeekday(y: number, m: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
    return iso(y, m, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(y, m, 0));
  const back = (lastDay.getUTCDay() - weekday + 7) % 7;
  return iso(y, m, lastDay.getUTCDate() - back);
}

/**
 * A fixed-date holiday as the Fed observes it: on a Sunday, the Monday after; on a Saturday, none
 * (Reserve Banks stay open the Friday before, unlike federal offices).
 */
function observedFixed(y: number, m: number, d: number): string | null {
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  if (weekday === 6) return null;
  return weekday === 0 ? iso(y, m, d + 1) : iso(y, m, d);
}

/** The Fed holidays observed in a year (K.8 schedule), sorted. */
export function fedHolidays(year: number): string[] {
  const days = [
    observedFixed(year, 1, 1), // New Year's Day
    nthWeekday(year, 1, 1, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 2, 1, 3), // Washington's Birthday
    nthWeekday(year, 5, 1, -1), // Memorial Day
    year >= 2022 ? observedFixed(year, 6, 19) : null, // Juneteenth, a Fed holiday since 2022
    observedFixed(year, 7, 4), // Independence Day
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 10, 1, 2), // Columbus Day
    observedFixed(year, 11, 11), // Veterans Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving Day
    observedFixed(year, 12, 25), // Christmas Day
  ];
  return days.filter((d): d is string => d !== null).sort();
}

const byYear = new Map<number, Set<string>>();
function holidaySet(year: number): Set<string> {
  let s = byYear.get(year);
  if (!s) {
    s = new Set(fedHolidays(year));
    byYear.set(year, s);
  }
  return s;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** True when a YYYY-MM-DD day is a weekday and not a Fed holiday. */
export function isBusinessDay(day: string): boolean {
  if (!DAY.test(day)) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
  const weekday = utc(day).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !holidaySet(Number(day.slice(0, 4))).has(day);
}

/** The day itself when it is a business day, else the next one ("following") or the one before ("preceding"). */
export function rollToBusinessDay(day: string, roll: Roll): string {
  const step = roll === "following" ? 1 : -1;
  let d = day;
  while (!isBusinessDay(d)) d = addDays(d, step);
  return d;
}

/**
 * The business day `n` business days after `day` (before it when n is negative): the n-th business
 * day counted from the day after, so a Saturday's next business day is the Monday and its previous
 * the Friday, as on a business day. n = 0 is the day itself rolled forward to a business day.
 */
export function addBusinessDays(day: string, n: number): string {
  if (n === 0) return rollToBusinessDay(day, "following");
  const step = n < 0 ? -1 : 1;
  let d = day;
  for (let left = Math.abs(n); left > 0; left--)
    d = rollToBusinessDay(addDays(d, step), step > 0 ? "following" : "preceding");
  return d;
}

/** The first and last business days of a month (YYYY, 1-12). */
export function firstBusinessDayOfMonth(year: number, month: number): string {
  return rollToBusinessDay(iso(year, month, 1), "following");
}
export function lastBusinessDayOfMonth(year: number, month: number): string {
  return rollToBusinessDay(iso(year, month + 1, 0), "preceding");
}

/** Business days from `from` to `to`, both included. */
export function businessDaysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (isBusinessDay(d)) out.push(d);
  return out;
}
