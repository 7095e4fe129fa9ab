// Amounts as people type them ("1,234.50") checked by the contract's own amount schema, so the
// form, the route handler and the bank share one set of limits.
import { z } from "zod";
import {
  dollarsToCents,
  MISPLACED_SEPARATOR_RULE,
  misplacedSeparator,
  typedDollarsText,
} from "../bank-api/money.ts";

/** A number as people type it → the contract's number: read as typedDollarsText reads it, then `accepts` the rest or says `rule`. */
export function typedNumber<S extends z.ZodType<number, number>>(
  contract: S,
  accepts: (digits: string) => boolean,
  rule: string,
) {
  return z
    .string({ error: "is required" })
    .transform((s, ctx) => {
      const t = typedDollarsText(s);
      if (t === "") {
        ctx.addIssue({ code: "custom", message: "is required" });
        return z.NEVER;
      }
      if (!accepts(t)) {
        ctx.addIssue({ code: "custom", message: misplacedSeparator(s) ? MISPLACED_SEPARATOR_RULE : rule });
        return z.NEVER;
      }
      // Exact: decimal text of at most two decimals round-trips through a JSON number.
      return Number(t);
    })
    .pipe(contract);
}

/** Dollars text → the contract's amount (integer cents); separators and "$" are allowed. */
export const moneyText = <S extends z.ZodType<number, number>>(contractAmount: S) =>
  typedNumber(
    contractAmount,
    (t) => dollarsToCents(t) !== null,
    "must be an amount in dollars, at most two decimals",
  );
