// Form-side schemas for what people type: amounts in dollars as written ("1,234.50") become
// integer cents through the decimal text, never through floating-point arithmetic.
import { z } from "zod";
import { dollarsToCents, formatUsd } from "../bank-api/money.ts";

/** A dollar amount typed by a person, to cents: positive, at most two decimals, within max. */
export function dollarsInput(opts: { maxCents?: number; label?: string } = {}) {
  return z.string().transform((raw, ctx) => {
    const text = raw.trim().replace(/^\$/, "").replaceAll(",", "");
    if (text === "") {
      ctx.addIssue({ code: "custom", message: `Enter ${opts.label ?? "an amount"}.` });
      return z.NEVER;
    }
    if (!/^\d+(\.\d*)?$|^\.\d+$/.test(text)) {
      ctx.addIssue({ code: "custom", message: "Enter an amount in dollars, such as 1,250.00." });
      return z.NEVER;
    }
    const cents = dollarsToCents(text.endsWith(".") ? text.slice(0, -1) : text);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: "Use at most two decimals (whole cents)." });
      return z.NEVER;
    }
    if (cents <= 0) {
      ctx.addIssue({ code: "custom", message: "The amount must be more than zero." });
      return z.NEVER;
    }
    if (opts.maxCents !== undefined && cents > opts.maxCents) {
      ctx.addIssue({ code: "custom", message: `The amount can be at most ${formatUsd(opts.maxCents)}.` });
      return z.NEVER;
    }
    return cents;
  });
}

/** Optional text: trimmed, and "" read as not given. */
export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .transform((v) => (v === "" ? undefined : v));
}
