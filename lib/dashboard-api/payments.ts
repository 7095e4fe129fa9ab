// The payments page: GET /api/payments (one account's wires over at most 32 days, filtered,
// sorted and paged) and GET /api/payments/[id] (every field of one record, and its history).
import { z } from "zod";
import { daysBetween } from "../bank-api/dates.ts";
import { calendarDay } from "../bank-api/fields.ts";
import {
  PAYMENT_DIRECTIONS as BANK_DIRECTIONS,
  PAYMENT_STATUSES,
  PAYMENT_WINDOW_DAYS,
  PaymentRecordSchema,
} from "../bank-api/payments.ts";
import {
  ALL_ACCOUNTS,
  PAYMENT_DIRECTIONS,
  PAYMENT_PAGE_SIZE_MESSAGE,
  PAYMENT_PAGE_SIZES,
  PAYMENT_SORTS,
} from "../form-rules/send-money-fields.ts";

const day = calendarDay();
const accountNumber = z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)");

export { ALL_ACCOUNTS, PAYMENT_PAGE_SIZES, PAYMENT_SORTS };

export const PaymentsQuery = z
  .object({
    account: z
      .string()
      .regex(new RegExp(`^(${ALL_ACCOUNTS}|\\d{1,20})$`), "must be all or an account number (digits only)"),
    from: day,
    to: day,
    direction: z.enum(PAYMENT_DIRECTIONS, { error: "must be all, incoming or outgoing" }).default("all"),
    status: z
      .enum(["all", ...PAYMENT_STATUSES], { error: `must be all or ${PAYMENT_STATUSES.join(", ")}` })
      .default("all"),
    sort: z.enum(PAYMENT_SORTS, { error: `must be one of ${PAYMENT_SORTS.join(", ")}` }).default("date-desc"),
    page: z
      .string()
      .regex(/^\d{1,6}$/, "must be a page number")
      .transform(Number)
      .pipe(z.number().min(1, "must be at least 1"))
      .default(1),
    pageSize: z
      .string()
      .transform(Number)
      .pipe(
        z.union(
          PAYMENT_PAGE_SIZES.map((n) => z.literal(n)),
          { error: PAYMENT_PAGE_SIZE_MESSAGE },
        ),
      )
      .default(25),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to)
      ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before the start date" });
    else if (daysBetween(q.from, q.to) > PAYMENT_WINDOW_DAYS)
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `must be within ${PAYMENT_WINDOW_DAYS} days of the start date (the bank's limit)`,
      });
  });
export type PaymentsQuery = z.input<typeof PaymentsQuery>;

/** One row of the list: the record's fields the table shows, amount in cents. */
export const PaymentRow = z.object({
  paymentId: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  direction: z.enum(BANK_DIRECTIONS),
  date: z.string(),
  timestamp: z.string(),
  amountCents: z.number().int(),
  counterparty: z.string(),
  counterpartyAccount: z.string(),
  /** The account the payment belongs to (the list may hold every account's). */
  account: z.string(),
});
export type PaymentRow = z.infer<typeof PaymentRow>;

export const PaymentsResponse = z.object({
  account: z.string(),
  from: z.string(),
  to: z.string(),
  payments: z.array(PaymentRow),
  /** Matching payments in the range, over all pages. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PaymentsResponse = z.infer<typeof PaymentsResponse>;

export const PaymentDetailQuery = z.object({ account: accountNumber });

/** One step of a payment's story: what happened, when, and who did it (null: the bank). */
export const PaymentStoryStep = z.object({
  at: z.string(),
  title: z.string(),
  who: z.string().nullable(),
  note: z.string().nullable(),
});
export type PaymentStoryStep = z.infer<typeof PaymentStoryStep>;

export const PaymentDetailResponse = z.object({
  account: z.string(),
  /** Oldest first: preparation, corrections, approvals and release, then the bank's statuses. */
  story: z.array(PaymentStoryStep),
  record: PaymentRecordSchema,
  amountCents: z.number().int(),
  /** The account's history entries that carry this payment id (after settlement). */
  history: z.array(
    z.object({
      date: z.string(),
      uniqueId: z.string(),
      amountCents: z.number().int(),
      direction: z.enum(["debit", "credit"]),
      description: z.string(),
      descriptions: z.array(z.string()),
    }),
  ),
});
export type PaymentDetailResponse = z.infer<typeof PaymentDetailResponse>;
