// The contract's typed fields (lib/bank-api/rules.ts) as zod/mini schemas for the browser's
// forms: the same limits, checks and messages as the contract's own schemas (fields.ts), from the
// same table, in zod's tree-shakable build, so a form page does not load the whole schema library.
// The route handlers check every request again with the contract's schemas.
import * as z from "zod/mini";
import { isoDayProblem } from "../bank-api/dates.ts";
import { canonicalGuid } from "../bank-api/guid.ts";
import {
  dollarsToCents,
  MISPLACED_SEPARATOR_RULE,
  misplacedSeparator,
  typedDollarsText,
} from "../bank-api/money.ts";
import {
  amountCents,
  BANK_TYPE_MESSAGE,
  BANK_TYPES,
  type FieldRule,
  ruleChecks,
  TEXT_CHECKS,
} from "../bank-api/rules.ts";

type Issues = { issues: z.core.$ZodRawIssue[]; value: unknown };
const fail = (ctx: Issues, message: string) => {
  ctx.issues.push({ code: "custom", message, input: ctx.value });
  return z.NEVER;
};

const str = (max: number) =>
  z
    .string()
    .check(
      z.maxLength(max, `must be at most ${max} characters`),
      z.refine(...TEXT_CHECKS.noControl),
      z.refine(...TEXT_CHECKS.noHiddenText),
    );

const required = (max: number) =>
  z.string().check(
    // Checked before trimming, as the contract does.
    z.refine(...TEXT_CHECKS.noHiddenText),
    z.trim(),
    z.minLength(1, "is required"),
    z.maxLength(max, `must be at most ${max} characters`),
    z.refine(...TEXT_CHECKS.noControl),
  );

/** A typed text field of the table: required, or "" for not given. */
export function textField(rule: Extract<FieldRule, { kind: "text" }>) {
  let s = (rule.required ? required : str)(rule.max);
  for (const check of ruleChecks(rule)) s = s.check(z.refine(...check));
  return s;
}

/** Text that is either empty or the table's rule (an optional field of a form). */
export function optionalTextField(rule: Extract<FieldRule, { kind: "text" }>) {
  return z.union([z.literal(""), textField(rule)]);
}

/** ABA or SWIFT in any case, or empty. */
export const bankTypeField = () =>
  z.union([
    z.literal(""),
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((s) => s.toUpperCase()),
      ),
      z.enum(BANK_TYPES, { error: BANK_TYPE_MESSAGE }),
    ),
  ]);

/** Dollars as people type them, read as typedDollarsText reads them; nothing left is "is required", else `read` it. */
const typedDollars = <T>(read: (t: string, ctx: Issues) => T) =>
  z.pipe(
    z.string({ error: "is required" }),
    z.transform((s: string, ctx) => {
      const t = typedDollarsText(s);
      if (t === "") return fail(ctx, "is required");
      return misplacedSeparator(s) ? fail(ctx, MISPLACED_SEPARATOR_RULE) : read(t, ctx);
    }),
  );

/** Dollars as typed ("1,234.50") → the amount rule's integer cents, with the contract's messages. */
export function moneyTextField(rule: Extract<FieldRule, { kind: "amount" }>) {
  return typedDollars((t, ctx) => {
    if (dollarsToCents(t) === null) return fail(ctx, "must be an amount in dollars, at most two decimals");
    const r = amountCents(Number(t), rule.maxLength);
    return "cents" in r ? r.cents : fail(ctx, r.problem);
  });
}

/** Whole dollars as typed ("25,000") → a number within the rule's range. */
export function wholeDollarsTextField(rule: Extract<FieldRule, { kind: "wholeDollars" }>) {
  return typedDollars((t, ctx) => {
    if (!/^\d{1,12}$/.test(t)) return fail(ctx, "must be whole dollars");
    const n = Number(t);
    if (n < rule.min) return fail(ctx, `must be at least ${rule.min}`);
    if (n > rule.max) return fail(ctx, `must be at most ${rule.max}`);
    return n;
  });
}

/** The `Idempotency-Key` a form session carries, read as its canonical form. */
export const idempotencyKeyField = () =>
  z.pipe(
    z.string(),
    z.transform((s: string, ctx) => {
      const key = canonicalGuid(s);
      return key ?? fail(ctx, "must be a GUID (such as 0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa)");
    }),
  );

/** A day typed YYYY-MM-DD that is on the calendar, with the contract's messages (calendarDay). */
export const calendarDayField = () =>
  z.string().check(
    z.superRefine((s, ctx) => {
      const problem = isoDayProblem(s);
      // Not fatal, as the contract's check is not: the object's own checks still run.
      if (problem) ctx.issues.push({ code: "custom", message: problem, input: s, continue: true });
    }),
  );
