// Amounts as people type them ("1,234.50") read by the one reader of typed dollars
// (lib/form-rules/typed-dollars.ts), then checked by the contract's own number schema, so the form, the
// route handler and the bank share one set of limits.
import { z } from "zod";
import { centsToDollars } from "../bank-api/money.ts";
import { readTypedDollars, typedDollarsMessage } from "../form-rules/typed-dollars.ts";

/** Dollars as typed → the contract's number (`whole`: whole dollars only), then the contract's checks. */
export function typedDollars<S extends z.ZodType<unknown, number>>(
  contract: S,
  opts: { whole?: boolean } = {},
) {
  return z
    .string({ error: "is required" })
    .transform((s, ctx) => {
      const r = readTypedDollars(s, opts);
      if (!r.ok) {
        ctx.addIssue({ code: "custom", message: typedDollarsMessage(r, "rule") });
        return z.NEVER;
      }
      // Exact: the decimal text of whole cents round-trips through a JSON number.
      return centsToDollars(r.cents);
    })
    .pipe(contract);
}
