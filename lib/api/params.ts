// Shared input schemas of the dashboard API.
import { z } from "zod";
import { businessDayFormatter } from "../bank-api/dates.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { invalid } from "./errors.ts";

export const accountNumberParam = z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)");

/** Validates a path's account number or answers 400 invalid. */
export function accountNumberFrom(params: { accountNumber?: string | string[] }): string {
  const r = accountNumberParam.safeParse(params.accountNumber);
  if (!r.success) throw invalid([{ field: "accountNumber", message: r.error.issues[0].message }]);
  return r.data;
}

/** Today's business day of the bank: its clock as its answers tell it, in its time zone (DASHBOARD_TIME_ZONE). */
export function businessToday(now = bankNow()): string {
  return businessDayFormatter(config().timeZone)(now);
}

/**
 * The bank's business day, having heard the bank's time at least once in this process (or now,
 * when `fresh`); null when `fresh` and the bank did not answer.
 */
export async function bankToday(o: { fresh: true }): Promise<string | null>;
export async function bankToday(o?: { fresh?: false }): Promise<string>;
export async function bankToday(o: { fresh?: boolean } = {}): Promise<string | null> {
  const heard = await (await getBankClient().catch(() => null))?.learnBankTime(o);
  return o.fresh && !heard ? null : businessToday();
}

// The route handlers take their day arithmetic from here with their other parameters.
export { addDays } from "../bank-api/dates.ts";
