// Shared input schemas of the dashboard API.
import { z } from "zod";
import { dayIn } from "../bank-api/dates.ts";
import { config } from "../config.ts";
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

/** Today's business day of the bank (its time zone: DASHBOARD_TIME_ZONE). */
export function businessToday(now = new Date()): string {
  return dayIn(config().timeZone, now);
}

export function addDays(day: string, n: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
