// The payments page's filter form schema in zod/mini for the browser, built from the contract's field tables
// (lib/bank-api/rules.ts). It mirrors the route handler's schema in lib/dashboard-api/ (the same
// table, the same messages; tests/unit/send-money-forms.test.ts holds them together), which checks
// every request again. One module per form, so a page loads only its own.
import * as z from "zod/mini";
import { daysBetween } from "../bank-api/dates.ts";
import { PAYMENT_STATUSES, PAYMENT_WINDOW_DAYS } from "../bank-api/rules.ts";
import { calendarDayField } from "./contract-fields.ts";
import {
  PAYMENT_DIRECTIONS,
  PAYMENT_PAGE_SIZE_MESSAGE,
  PAYMENT_PAGE_SIZES,
  PAYMENT_SORTS,
} from "./send-money-fields.ts";

const day = calendarDayField();

/** The payments page's filters as the form holds them (text); the route handler reads numbers. */
export const PaymentsFilterForm = z
  .object({
    account: z.string().check(z.regex(/^\d{1,20}$/, "must be an account number (digits only)")),
    from: day,
    to: day,
    direction: z.enum(PAYMENT_DIRECTIONS, { error: "must be all, incoming or outgoing" }),
    status: z.enum(["all", ...PAYMENT_STATUSES], { error: `must be all or ${PAYMENT_STATUSES.join(", ")}` }),
    sort: z.enum(PAYMENT_SORTS, { error: `must be one of ${PAYMENT_SORTS.join(", ")}` }),
    page: z.string().check(
      z.regex(/^\d{1,6}$/, "must be a page number"),
      z.refine((p) => !/^\d{1,6}$/.test(p) || Number(p) >= 1, "must be at least 1"),
    ),
    pageSize: z
      .string()
      .check(z.refine((s) => PAYMENT_PAGE_SIZES.some((n) => String(n) === s), PAYMENT_PAGE_SIZE_MESSAGE)),
  })
  .check(
    z.superRefine((q, ctx) => {
      if (q.from > q.to)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: "must not be before the start date",
          input: q.to,
        });
      else if (daysBetween(q.from, q.to) > PAYMENT_WINDOW_DAYS)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `must be within ${PAYMENT_WINDOW_DAYS} days of the start date (the bank's limit)`,
          input: q.to,
        });
    }),
  );
export type PaymentsFilters = z.output<typeof PaymentsFilterForm>;
