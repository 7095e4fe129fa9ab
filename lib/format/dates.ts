// Dates in the dashboard API are business days as YYYY-MM-DD text. They are handled as text
// and as UTC calendar days so that a browser's own time zone never shifts a day.

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar day written YYYY-MM-DD. */
export function isIsoDay(s: string | null | undefined): s is string {
  if (!s) return false;
  const m = ISO_DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** Today's calendar day where the browser is, as YYYY-MM-DD. */
export function todayIsoDay(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** Adds whole days to a YYYY-MM-DD day. */
export function addIsoDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return t.toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  const ta = Date.parse(`${a}T00:00:00Z`);
  const tb = Date.parse(`${b}T00:00:00Z`);
  return Math.round((tb - ta) / 86_400_000);
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
