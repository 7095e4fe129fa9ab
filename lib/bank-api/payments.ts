// Wire payments (specification, "Payment (wire) resource"; docs/api-notes.md for the query names).
import { z } from "zod";
import { LongErrorItemSchema } from "./errors.ts";
import { codeOf, contractShape, queryInt32, required, requiredUnless, str, wireDate } from "./fields.ts";
import { PAYMENT_FIELD_GROUPS, type PaymentDetailField } from "./payment-record-fields.ts";
import {
  INITIATE_PAYMENT_FIELDS,
  NO_CONTROL,
  noControlCharacters,
  PAYMENT_STATUSES,
  PAYMENT_WINDOW_DAYS,
  ROUTING_PAIRS,
  RoutingJsonSchema,
  routingProblem,
} from "./rules.ts";

export { noControlCharacters, PAYMENT_STATUSES, PAYMENT_WINDOW_DAYS, type PaymentStatus } from "./rules.ts";

/**
 * The earliest `begin_date` of a list that leaves `end_date` to the bank (its today): one day
 * short of the window, so that the bank's today in its own time zone stays inside. `bankAt` is
 * the bank's time (`bankNow()`), not this machine's: a sandbox bank's clock may run days ahead.
 */
export function paymentWindowBegin(bankAt: Date): string {
  return new Date(bankAt.getTime() - (PAYMENT_WINDOW_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** `Internal`: an outgoing wire to another account of this bank. */
export const PAYMENT_DIRECTIONS = ["Incoming", "Outgoing", "Internal"] as const;

export const PAYMENT_ACTIONS = ["approve", "cancel", "return"] as const;
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];

/** `fedwire_sub_type`: 00 standard, 02 same-day return, 08 non-same-day return. */
export const FEDWIRE_SUB_TYPES = { STANDARD: "00", RETURN_SAME_DAY: "02", RETURN_LATER: "08" } as const;

const text = (max: number) => str(max).refine(noControlCharacters, NO_CONTROL);
const requiredText = (max: number) => required(max).refine(noControlCharacters, NO_CONTROL);

export const initiatePaymentRequest = z
  .object(contractShape(INITIATE_PAYMENT_FIELDS))
  .superRefine((p, ctx) => {
    // A routing id is checked against the routing method named beside it.
    for (const [typeField, idField] of ROUTING_PAIRS) {
      const message = routingProblem(p[typeField], p[idField]);
      if (message) ctx.addIssue({ code: "custom", path: [idField], message });
    }
  })
  .meta(RoutingJsonSchema);
export type InitiatePaymentRequest = z.output<typeof initiatePaymentRequest>;
export type InitiatePaymentInput = z.input<typeof initiatePaymentRequest>;

/**
 * The payment response of POST /v2/payment, PUT /v2/payment and both backup calls. A request
 * the bank refuses on business grounds (unknown account, insufficient funds, unknown payment)
 * answers 200 with empty payment fields and the reasons in `Errors` (long-form items), the
 * wire-side error array the record shows; a successful answer carries `Errors: []`.
 */
export const paymentResponse = z.object({
  payment_id: z.string(),
  // Empty, with the reasons in Errors, when the bank refuses the request.
  payment_status: z.enum(["", ...PAYMENT_STATUSES]),
  payment_timestamp: z.string(),
  Errors: z.array(LongErrorItemSchema).optional(),
});
export type PaymentResponse = z.infer<typeof paymentResponse>;

/** `YYYY-MM-DD hh:mm:ss.fff`, the 23-character payment timestamp. */
export const PAYMENT_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;

// PUT /v2/payment and PUT /v2/payment/backup: query only, no body (docs/decisions.md, as the public record shows).
export const paymentActionQuery = z.object({
  account_number: requiredText(20),
  payment_id: requiredText(20),
  action: codeOf(PAYMENT_ACTIONS, "must be approve, cancel or return", (s) => s.trim().toLowerCase()),
  timestamp: z.string().regex(PAYMENT_TIMESTAMP, "must be the payment timestamp YYYY-MM-DD hh:mm:ss.fff"),
});
export type PaymentActionQuery = z.output<typeof paymentActionQuery>;

// GET /v2/payment
export const PAYMENT_PAGE_SIZE_DEFAULT = 1000;

export const paymentListQuery = requiredUnless(
  z.object({
    account_number: requiredText(20).meta({ "x-exists": "an account of this subscription (else a 400)" }),
    payment_id: text(20).optional(),
    begin_date: wireDate()
      .meta({ "x-required-with": ["end_date"] })
      .optional(),
    end_date: wireDate()
      .meta({ "x-not-before": "begin_date", "x-within-days-of": { begin_date: PAYMENT_WINDOW_DAYS } })
      .optional(),
    sort_order: codeOf(["asc", "desc"], "must be asc or desc", (s) => s.toLowerCase()).optional(),
    page_size: queryInt32({ min: 1, max: 10000, byDefault: PAYMENT_PAGE_SIZE_DEFAULT }).optional(),
    page_number: queryInt32({ min: 1, byDefault: 1 }).optional(),
  }),
  { begin_date: ["payment_id"] },
);
export type PaymentListQuery = z.output<typeof paymentListQuery>;

/** The record's fields but `amount`, in the specification's order. */
export const PAYMENT_RECORD_FIELDS = PAYMENT_FIELD_GROUPS.flatMap((g) => g.fields).filter(
  (f): f is Exclude<PaymentDetailField, "amount"> => f !== "amount",
);
export type PaymentRecordField = (typeof PAYMENT_RECORD_FIELDS)[number];

/** One GET /v2/payment record: `amount` is a number, every other field a string (dates as date-time). */
export const PaymentRecordSchema = z.object({
  ...(Object.fromEntries(PAYMENT_RECORD_FIELDS.map((f) => [f, z.string()])) as {
    [K in PaymentRecordField]: z.ZodString;
  }),
  payment_status: z.enum(PAYMENT_STATUSES),
  direction: z.enum(PAYMENT_DIRECTIONS),
  amount: z.number(),
});
export type PaymentRecord = z.infer<typeof PaymentRecordSchema>;

export const paymentListResponse = z.array(PaymentRecordSchema);
