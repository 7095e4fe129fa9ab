// Error shapes: the gateway's 400/401/429/503 bodies (docs/decisions.md) and the specification's
// ERROR / Errors items that travel inside 200 responses.
import { z } from "zod";

export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

export const GatewayErrorSchema = z.object({
  statusCode: z.number().int(),
  message: z.string(),
  errors: z.array(FieldErrorSchema).optional(),
});
export type GatewayError = z.infer<typeof GatewayErrorSchema>;

/** Short-form error item (transfer response). */
export const ShortErrorItemSchema = z.object({
  MESSAGEID: z.string(),
  SEGMENTID: z.string(),
  FIELDNAME: z.string(),
  ERRORMSG: z.string(),
});
export type ShortErrorItem = z.infer<typeof ShortErrorItemSchema>;

/** Long-form error item (all other account-side responses, and `Errors` on wire responses). */
export const LongErrorItemSchema = z.object({
  MESSAGEID: z.string(),
  MESSAGETYPE: z.string(),
  SEGMENTID: z.string(),
  SEGMENT_OCCUR: z.string(),
  FIELDNAME: z.string(),
  ERRORMSG: z.string(),
});
export type LongErrorItem = z.infer<typeof LongErrorItemSchema>;

/** Message item (transfer response). */
export const MessageItemSchema = z.object({
  MESSAGEID: z.string(),
  MESSAGETYPE: z.string(),
  MESSAGETEXT: z.string(),
});
export type MessageItem = z.infer<typeof MessageItemSchema>;

/**
 * The bank's catalogue of business rejections. The specification leaves MESSAGEID values
 * unshown; these codes are stable so that clients can branch on them.
 */
export const BUSINESS_ERRORS = {
  ACCOUNT_NOT_FOUND: { id: "E0101", text: "Account not found" },
  ACCOUNT_NOT_PERMITTED: { id: "E0102", text: "Account is not permissioned for this subscription" },
  ACCOUNT_CLOSED: { id: "E0103", text: "Account is not open" },
  ACCOUNT_NOT_SEN: { id: "E0104", text: "Account is not on the SEN network" },
  INSUFFICIENT_FUNDS: { id: "E0201", text: "Insufficient available funds" },
  SAME_ACCOUNT: { id: "E0202", text: "Accounts must differ" },
  IDEMPOTENCY_MISMATCH: { id: "E0301", text: "Idempotency-Key was already used with a different request" },
  PAYMENT_NOT_FOUND: { id: "E0401", text: "Payment not found" },
  TRANSACTION_NOT_FOUND: { id: "E0501", text: "Transaction not found" },
  WEBHOOK_NOT_FOUND: { id: "E0601", text: "Webhook not found" },
} as const;
export type BusinessErrorCode = keyof typeof BUSINESS_ERRORS;

export function longError(code: BusinessErrorCode, field = "", occur = "1"): LongErrorItem {
  const e = BUSINESS_ERRORS[code];
  return {
    MESSAGEID: e.id,
    MESSAGETYPE: "E",
    SEGMENTID: "",
    SEGMENT_OCCUR: occur,
    FIELDNAME: field,
    ERRORMSG: e.text,
  };
}

export function shortError(code: BusinessErrorCode, field = ""): ShortErrorItem {
  const e = BUSINESS_ERRORS[code];
  return { MESSAGEID: e.id, SEGMENTID: "", FIELDNAME: field, ERRORMSG: e.text };
}

/** Maps zod issues onto the 400 body's `errors`, named by wire field. */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((i) => ({
    field: i.path.length ? i.path.map(String).join(".") : "body",
    message: i.message,
  }));
}
