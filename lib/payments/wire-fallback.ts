// Wire calls with the outage fallback: when the wire system answers 503 (outage or maintenance),
// the same request goes to /v2/payment/backup, which logs it for replay once the system is back.
// Only a 503 falls back: it says the request was not taken, where a timeout leaves that unknown
// and a second, different path could then act twice. The caller records each send before it
// happens (`beforeSend`), so a crash between recording and answering never leads to a blind resend.
import "server-only";
import type { InitiatePaymentInput, PaymentActionQuery, PaymentResponse } from "../bank-api/payments.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { BankError, BankResult } from "../bank-client/errors.ts";

export type WireChannel = "primary" | "backup";

export interface WireSend {
  /** Which call gave `result`: PUT/POST /v2/payment, or the backup log after a 503. */
  channel: WireChannel;
  result: BankResult<PaymentResponse>;
  /** The primary call's error when the backup was used. */
  primaryError?: BankError;
}

export interface WireSendHooks {
  /** Awaited before each call goes out; a throw stops the send. */
  beforeSend(channel: WireChannel): Promise<void>;
}

/** The wire system said it is down: nothing was done, and the backup log may take the request. */
export function isWireSystemDown(e: BankError): boolean {
  return e.kind === "unavailable" && e.status === 503;
}

export async function sendWithFallback(
  primary: () => Promise<BankResult<PaymentResponse>>,
  backup: () => Promise<BankResult<PaymentResponse>>,
  hooks: WireSendHooks,
): Promise<WireSend> {
  await hooks.beforeSend("primary");
  const first = await primary();
  if (first.ok || !isWireSystemDown(first.error)) return { channel: "primary", result: first };
  await hooks.beforeSend("backup");
  return { channel: "backup", result: await backup(), primaryError: first.error };
}

/** Approve, cancel or return an incoming wire: PUT /v2/payment, else PUT /v2/payment/backup. */
export function actOnIncomingWire(
  bank: BankClient,
  query: PaymentActionQuery,
  hooks: WireSendHooks,
): Promise<WireSend> {
  const q = { ...query };
  return sendWithFallback(
    () => bank.call("paymentAction", { query: q }),
    () => bank.call("paymentActionBackup", { query: q }),
    hooks,
  );
}

/**
 * Send a released outgoing wire: POST /v2/payment, else POST /v2/payment/backup, both with the
 * caller's Idempotency-Key. The bank keeps one key space for the two, so a resend on either path,
 * after a timeout or from another instance, answers the first payment instead of making a second.
 */
export function sendOutgoingWire(
  bank: BankClient,
  body: InitiatePaymentInput,
  idempotencyKey: string,
  hooks: WireSendHooks,
): Promise<WireSend> {
  return sendWithFallback(
    () => bank.call("initiatePayment", { body, idempotencyKey }),
    () => bank.call("initiatePaymentBackup", { body, idempotencyKey }),
    hooks,
  );
}
