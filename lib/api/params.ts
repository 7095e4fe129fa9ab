// Shared input schemas of the dashboard API.
import { z } from "zod";
import { todayIsoDay } from "../format/dates.ts";
import { invalid } from "./errors.ts";

export const accountNumberParam = z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)");

/** Validates a path's account number or answers 400 invalid. */
export function accountNumberFrom(params: { accountNumber?: string | string[] }): string {
  const r = accountNumberParam.safeParse(params.accountNumber);
  if (!r.success) throw invalid([{ field: "accountNumber", message: r.error.issues[0].message }]);
  return r.data;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
export const isoDay = z
  .string()
  .regex(ISO_DAY, "must be a date written YYYY-MM-DD")
  .refine((s) => new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s, "is not a calendar date");

/** The bank's business time zone (DASHBOARD_TIME_ZONE, default America/New_York). */
export function businessTimeZone(): string {
  return process.env.DASHBOARD_TIME_ZONE || "America/New_York";
}

/** Today's business day of the bank, in its time zone. */
export function businessToday(now = new Date()): string {
  return todayIsoDay(now, businessTimeZone());
}

export function addDays(day: string, n: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
