// Calendar days as `YYYY-MM-DD` text, for the bank and the dashboard alike. They are handled as
// text and as UTC calendar days, so that no machine's or browser's time zone shifts a day.

/** The bank's business time zone unless configured (BANK_TIME_ZONE, DASHBOARD_TIME_ZONE). */
export const DEFAULT_TIME_ZONE = "America/New_York";

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when year, month (1-12) and day name a day that exists. */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** True when `s` is a real calendar day written YYYY-MM-DD. */
export function isIsoDay(s: string | null | undefined): s is string {
  if (!s) return false;
  const m = ISO_DAY.exec(s);
  return !!m && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** What is wrong with a day typed YYYY-MM-DD (its shape, then the calendar), or null. */
export function isoDayProblem(s: string): string | null {
  if (!ISO_DAY.test(s)) return "must be a date written YYYY-MM-DD";
  return isIsoDay(s) ? null : "is not a calendar date";
}

/** Adds whole days to a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * The business day (YYYY-MM-DD) of an instant in a time zone. Building the formatter checks the
 * zone: an unknown one throws a RangeError here, at start, rather than on a request.
 */
export function businessDayFormatter(timeZone: string): (at: Date) => string {
  const fmt = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return (at) => fmt.format(at);
}
