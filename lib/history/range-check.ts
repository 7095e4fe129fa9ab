// The rules of a history range as plain functions: the route's and the form's schema
// (lib/dashboard-api/history-range.ts) are built from them, and the page checks a range read from
// the address with them at once, without loading the schema library.
import { daysBetween, isIsoDay } from "../bank-api/dates.ts";

/** True when `s` is a real calendar day written YYYY-MM-DD. */
export const isCalendarDay = (s: unknown): s is string => typeof s === "string" && isIsoDay(s);

/** What is wrong with one end of a range (`which`: "a start" or "an end"), or null. */
export function dayProblem(which: string, value: unknown): string | null {
  if (typeof value !== "string") return `Enter ${which} date.`;
  return isCalendarDay(value) ? null : `Enter ${which} date as a real day (YYYY-MM-DD).`;
}

/** What is wrong with two real days as a range of at most `maxDays` (said of its start), or null. */
export function spanProblem(from: string, to: string, maxDays: number): string | null {
  if (from > to) return "The start date must be on or before the end date.";
  if (daysBetween(from, to) + 1 > maxDays) return `The range can span at most ${maxDays} days.`;
  return null;
}

/** Problems with a range as one message per field; empty when it can be read. */
export function rangeErrors(from: string, to: string, maxDays: number): { from?: string; to?: string } {
  const out: { from?: string; to?: string } = {};
  const f = dayProblem("a start", from);
  const t = dayProblem("an end", to);
  if (f) out.from = f;
  if (t) out.to = t;
  if (!f && !t) {
    const span = spanProblem(from, to, maxDays);
    if (span) out.from = span;
  }
  return out;
}
