// Shared input schemas of the dashboard API.
import { z } from "zod";
import { businessDayFormatter, isIsoDay } from "../bank-api/dates.ts";
import { config } from "../config.ts";
import { invalid } from "./errors.ts";

export const accountNumberParam = z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)");

/** Validates a path's account number or answers 400 invalid. */
export function accountNumberFrom(params: { accountNumber?: string | string[] }): string {
  const r = accountNumberParam.safeParse(params.accountNumber);
  if (!r.success) throw invalid([{ field: "accountNumber", message: r.error.issues[0].message }]);
  return r.data;
}

// One check with one message per case: zod runs every refinement even after the format failed,
// so a refinement must never assume the format.
export const isoDay = z.string().superRefine((s, ctx) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s))
    ctx.addIssue({ code: "custom", message: "must be a date written YYYY-MM-DD" });
  else if (!isIsoDay(s)) ctx.addIssue({ code: "custom", message: "is not a calendar date" });
});

/** Today's business day of the bank (its time zone: DASHBOARD_TIME_ZONE). */
export function businessToday(now = new Date()): string {
  return businessDayFormatter(config().timeZone)(now);
}

// The route handlers take their day arithmetic from here with their other parameters.
export { addDays } from "../bank-api/dates.ts";
