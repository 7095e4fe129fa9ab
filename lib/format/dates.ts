// Dates in the dashboard API are business days as YYYY-MM-DD text. They are handled as text
// and as UTC calendar days so that a browser's own time zone never shifts a day.

import { isIsoDay } from "../bank-api/dates.ts";

/** Today's calendar day where the browser is, as YYYY-MM-DD. */
export function todayIsoDay(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

const DAY_FORMAT = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** "Nov 22, 2026" for a YYYY-MM-DD day; other text (or empty) passes through. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return "—";
  const s = day.slice(0, 10);
  if (!isIsoDay(s)) return day;
  return DAY_FORMAT.format(new Date(`${s}T00:00:00Z`));
}

const INSTANT_FORMAT = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** A timestamp for people, in the browser's time zone; unparseable text passes through. */
export function formatInstant(value: string | null | undefined): string {
  if (!value) return "—";
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : INSTANT_FORMAT.format(new Date(t));
}
