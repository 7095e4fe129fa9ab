// The history filter bar's fields, loaded when the bar is first used (the account page carries no
// zod in its first load): text as typed; an amount bound that is not dollars gets its message.
import * as z from "zod/mini";
import { parseAmountFilter } from "./filters.ts";

const amountBound = z.string().check(
  z.superRefine((text, ctx) => {
    const amount = parseAmountFilter(text);
    if (!amount.ok) ctx.addIssue({ code: "custom", message: amount.message });
  }),
);

export const HistoryFilterFields = z.object({
  q: z.string(),
  dir: z.enum(["all", "debit", "credit"]),
  min: amountBound,
  max: amountBound,
});
