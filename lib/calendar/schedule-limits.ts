// What a schedule's form may choose, without the rule library or zod: the weekdays a weekly
// series may fall on, and the limits of its numbers. The schedule's schema (recurrence.ts) and the
// Scheduled page's form both read them from here.
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR"] as const;
export type WeekdayCode = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<WeekdayCode, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
};

/** Every how many weeks a weekly series may repeat, at most. */
export const MAX_EVERY_WEEKS = 52;
/** The day of the month a monthly series names, at most (a shorter month pays on its last day). */
export const MAX_MONTH_DAY = 31;
/** The number of payments a series may be limited to, at most. */
export const MAX_OCCURRENCES = 1000;
