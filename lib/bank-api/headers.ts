// Every HTTP header name of the contract, spelled once. Header names are case-insensitive on the
// wire; these are the spellings the specification (and, for the bank's own, its notes) uses.

/** Headers of the /v2 API and of the sandbox. */
export const BANK_HEADERS = {
  /** Every call: the client's subscription key. */
  subscriptionKey: "Ocp-Apim-Subscription-Key",
  /** The JWT: in the token call's answer, then on every other call (raw or `Bearer <jwt>`). */
  authorization: "Authorization",
  /** transfersen, POST /v2/payment and POST /v2/payment/backup: a GUID that makes a retry act once. */
  idempotencyKey: "Idempotency-Key",
  /** Seconds to wait, on the 429 of a token asked for too soon. */
  retryAfter: "Retry-After",
  /** On every answer of the bank: the id its log lines carry. */
  requestId: "x-request-id",
  /** Every /sandbox call. */
  sandboxKey: "X-Sandbox-Key",
} as const;

/**
 * Standard Webhooks headers on every notification POST. The signature is `v1,` + base64
 * HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with the base64 part of the customer's
 * `whsec_` secret; `webhook-id` stays the same across retries so a receiver can drop repeats.
 */
export const WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;
