// Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed
// with the base64 part of the customer's `whsec_` secret.
import { createHmac } from "node:crypto";

export function webhookSigningKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", webhookSigningKey(secret)).update(`${id}.${timestamp}.${body}`);
  return `v1,${mac.digest("base64")}`;
}
