// Shared input schemas of the dashboard API: the path parameters of every route (withRoute's
// `params`, a 404 for a value that names nothing) and the bank's business day.
import { z } from "zod";
import { accountNumber } from "../bank-api/accounts.ts";
import { businessDayFormatter, isIsoDay } from "../bank-api/dates.ts";
import { required } from "../bank-api/fields.ts";
import { WEBHOOK_LIMITS } from "../bank-api/webhooks.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { ID_PATTERN } from "../dashboard-api/ids.ts";

/** One of the dashboard's own ids (a draft, series, sweep, user, change, payee, token, subscription). */
export const dashboardId = z.string().regex(ID_PATTERN, "must be a dashboard id");
/** An account number: the bank's rule (at most 20 characters), digits as its webhooks name them. */
export const accountNumberParam = accountNumber().regex(/^\d+$/, "must be an account number (digits only)");
/** A payment id of the bank (at most 20 characters, as its history names it), letters and digits. */
export const paymentIdParam = required(20).regex(
  /^[A-Za-z0-9]+$/,
  "must be a payment id (letters and digits)",
);
/** A webhook id of the bank (at most 64 characters), letters, digits, `_` and `-`. */
export const webhookIdParam = required(WEBHOOK_LIMITS.webHookId).regex(/^[\w-]+$/, "must be a webhook id");
/** A business day in a path: YYYY-MM-DD, and a real date. */
export const dayParam = z.string().refine(isIsoDay, "must be a day (YYYY-MM-DD)");

/** `[id]`: one of the dashboard's own ids. */
export const IdParams = z.object({ id: dashboardId });
/** `[sweepId]`: a sweep. */
export const SweepParams = z.object({ sweepId: dashboardId });
/** `[accountNumber]`: one of the bank's accounts. */
export const AccountParams = z.object({ accountNumber: accountNumberParam });
/** `[paymentId]`: one of the bank's payments (an incoming wire). */
export const PaymentParams = z.object({ paymentId: paymentIdParam });
/** `payments/[id]`: one of the bank's payments. */
export const PaymentIdParams = z.object({ id: paymentIdParam });
/** `webhooks/[id]`: one of the bank's webhooks. */
export const WebhookParams = z.object({ id: webhookIdParam });
/** `[id]/deliveries/[day]`: a subscription's delivery of one business day. */
export const DeliveryParams = z.object({ id: dashboardId, day: dayParam });

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
