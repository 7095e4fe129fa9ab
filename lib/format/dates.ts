// Dates in the dashboard API are business days as YYYY-MM-DD text. They are handled as text
// and as UTC calendar days so that a browser's own time zone never shifts a day.

import { isIsoDay } from "../bank-api/dates.ts";

/** Today's calendar day in a time zone (the bank's business day), or where the browser is. */
export function todayIsoDay(now: Date = new Date(), timeZone?: string): string {
  if (timeZone) {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(now);
  }
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

const instantFormats = new Map<string, Intl.DateTimeFormat>();

function instantFormat(timeZone: string): Intl.DateTimeFormat {
  let f = instantFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZone,
      timeZoneName: "short",
    });
    instantFormats.set(timeZone, f);
  }
  return f;
}

/**
 * A timestamp for people in the business time zone, labelled with the zone ("Nov 23, 2026,
 * 01:17:42 PM EST"): the same text on the server and in any browser. Unparseable text passes
 * through.
 */
export function formatInstant(value: string | null | undefined, timeZone: string): string {
  if (!value) return "—";
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : instantFormat(timeZone).format(new Date(t));
}

/** "New York time" for America/New_York; "UTC" for UTC. */
export function timeZoneLabel(timeZone: string): string {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return "UTC";
  const city = timeZone.split("/").pop() ?? timeZone;
  return `${city.replace(/_/g, " ")} time`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/**
 * "Dec 31, 2027" from a YYYY-MM-DD day, without a time zone or a date library: pages that only
 * name days (the balance ahead, the inbox's shortfalls) load this and not the recurrence rules.
 */
export function dayInWords(day: string): string {
  return `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;
}
