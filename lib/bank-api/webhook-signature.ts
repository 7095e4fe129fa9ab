// Standard Webhooks signing (the bank) and checking (a receiver, such as the dashboard): `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed
// with the base64 part of the customer's `whsec_` secret.
import { createHmac, timingSafeEqual } from "node:crypto";

export function webhookSigningKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", webhookSigningKey(secret)).update(`${id}.${timestamp}.${body}`);
  return `v1,${mac.digest("base64")}`;
}

/** Tolerated distance between a notification's timestamp and the receiver's clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * A receiver's check: one of the space-separated `v1,` signatures matches, and the timestamp is
 * within the tolerance of `nowSec` (a replayed old notification is refused).
 */
export function verifyWebhook(
  secret: string,
  h: { id: string | null; timestamp: string | null; signature: string | null },
  body: string,
  nowSec = Math.floor(Date.now() / 1000),
): boolean {
  if (!h.id || !h.timestamp || !h.signature || !/^\d+$/.test(h.timestamp)) return false;
  const ts = Number(h.timestamp);
  if (Math.abs(nowSec - ts) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signWebhook(secret, h.id, ts, body));
  return h.signature
    .split(" ")
    .some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected));
}
