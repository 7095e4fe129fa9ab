// Shared input schemas of the dashboard API.
import { z } from "zod";
import { invalid } from "./errors.ts";

export const accountNumberParam = z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)");

/** Validates a path's account number or answers 400 invalid. */
export function accountNumberFrom(params: { accountNumber?: string | string[] }): string {
  const r = accountNumberParam.safeParse(params.accountNumber);
  if (!r.success) throw invalid([{ field: "accountNumber", message: r.error.issues[0].message }]);
  return r.data;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `s` is a real day written YYYY-MM-DD (no 2026-13-01, no 2026-02-30). */
function isCalendarDay(s: string): boolean {
  const m = ISO_DAY.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

// One check with one message per case: zod runs every refinement even after the format failed,
// so a refinement must never assume the format (an invalid Date's toISOString throws).
export const isoDay = z.string().superRefine((s, ctx) => {
  if (!ISO_DAY.test(s)) ctx.addIssue({ code: "custom", message: "must be a date written YYYY-MM-DD" });
  else if (!isCalendarDay(s)) ctx.addIssue({ code: "custom", message: "is not a calendar date" });
});

/** Today's business day of the bank (its time zone; DASHBOARD_TIME_ZONE, default America/New_York). */
export function businessToday(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: process.env.DASHBOARD_TIME_ZONE || "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

export function addDays(day: string, n: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
