// Form-side schemas for what people type: amounts in dollars as written ("1,234.50") become
// integer cents through the decimal text, never through floating-point arithmetic. Written with
// zod's tree-shakable build: these travel to the browser with every form.
import * as z from "zod/mini";
import {
  dollarsToCents,
  formatUsd,
  MISPLACED_SEPARATOR_SENTENCE,
  misplacedSeparator,
  typedDollarsText,
} from "../bank-api/money.ts";

/** A dollar amount typed by a person, to cents: positive, at most two decimals, within max. */
export function dollarsInput(opts: { maxCents?: number; label?: string } = {}) {
  return z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const fail = (message: string) => {
        ctx.issues.push({ code: "custom", message, input: raw });
        return z.NEVER;
      };
      const text = typedDollarsText(raw);
      if (text === "") {
        return fail(`Enter ${opts.label ?? "an amount"}.`);
      }
      if (!/^\d+(\.\d+)?$/.test(text)) {
        if (misplacedSeparator(raw)) return fail(MISPLACED_SEPARATOR_SENTENCE);
        return fail("Enter an amount in dollars, such as 1,250.00.");
      }
      const cents = dollarsToCents(text);
      if (cents === null) {
        return fail("Use at most two decimals (whole cents).");
      }
      if (cents <= 0) {
        return fail("The amount must be more than zero.");
      }
      if (opts.maxCents !== undefined && cents > opts.maxCents) {
        return fail(`The amount can be at most ${formatUsd(opts.maxCents)}.`);
      }
      return cents;
    }),
  );
}

/** Optional text: trimmed, and "" read as not given. */
export function optionalText(max: number) {
  return z.pipe(
    z.string().check(z.trim(), z.maxLength(max, `Use at most ${max} characters.`)),
    z.transform((v: string) => (v === "" ? undefined : v)),
  );
}
