// Calendar days of the bank's business time zone, shared by both programs.

/** The business time zone when none is configured (BANK_TIME_ZONE, DASHBOARD_TIME_ZONE). */
export const DEFAULT_TIME_ZONE = "America/New_York";

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayIn(timeZone: string, at: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
}
