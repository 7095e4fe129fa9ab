// Building blocks for the wire contract: every field carries its wire type and the
// specification's maximum length, so the bank, the client and the forms share one truth.
import { z } from "zod";
import { isCalendarDate, isoDayProblem } from "./dates.ts";
import type { Cents } from "./money.ts";
import {
  AbaJsonSchema,
  AccountNumberJsonSchema,
  amountCents,
  BANK_TYPE_MESSAGE,
  BANK_TYPES,
  type FieldRule,
  type FieldTable,
  RoutingIdJsonSchema,
  ruleChecks,
  TEXT_CHECKS,
} from "./rules.ts";

export { hasHiddenText, isAbaRoutingNumber, isSwiftBic } from "./rules.ts";

/** Schemas whose wire type is a JSON number: XML text is converted to a number for these alone. */
const numericSchemas = new WeakSet<z.ZodType>();
/**
 * Numbers are judged by the text the client wrote, never by the double it parses to: a double
 * keeps 17 digits, so 1.0000000000000000001 would read as 1 and pass for whole or exact.
 */
const textChecks = new WeakMap<z.ZodType, (text: string) => string | null>();

function numeric<T extends z.ZodType>(schema: T): T {
  numericSchemas.add(schema);
  return schema;
}

export function isNumericSchema(schema: z.ZodType): boolean {
  return numericSchemas.has(unwrap(schema));
}

/** What is wrong with a number's text for this field, or null (also for fields that are not numbers). */
export function numberTextProblem(schema: z.ZodType, text: string): string | null {
  return textChecks.get(unwrap(schema))?.(text.trim()) ?? null;
}

/** At most two decimals, no exponent: the text of an amount the bank can take to the cent. */
function amountText(t: string): string | null {
  if (/[eE]/.test(t)) return "must be written as a plain decimal number (no exponent)";
  const frac = /\.(\d*)$/.exec(t);
  if (frac && frac[1].length > 2) return "must have at most two decimal places";
  return null;
}

/** A whole number may be written 5 or 5.0, never 5.0000000000000000001. */
function wholeText(t: string): string | null {
  return /\.\d*[1-9]/.test(t) ? "must be a whole number" : null;
}

function checkedText<T extends z.ZodType>(schema: T, check: (text: string) => string | null): T {
  textChecks.set(schema, check);
  return schema;
}

/** Strips optional/default/nullable wrappers to reach the field's own schema. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable)
    s = s.unwrap() as z.ZodType;
  return s;
}

/** A string of at most `max` characters (the specification's "Max length"). */
export const str = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine(...TEXT_CHECKS.noControl)
    .refine(...TEXT_CHECKS.noHiddenText);

/** A string that must hold something. */
export const required = (max: number) =>
  z
    .string()
    // Checked before trimming: trim() drops a byte-order mark or a line separator at either end.
    .refine(...TEXT_CHECKS.noHiddenText)
    .trim()
    .min(1, "is required")
    .max(max, `must be at most ${max} characters`)
    .refine(...TEXT_CHECKS.noControl);

const wholeNumber = <T extends z.ZodType>(schema: T): T => checkedText(numeric(schema), wholeText);

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/** int32 in a JSON body. */
export const int32 = () =>
  wholeNumber(
    z.number({ error: "must be a number" }).int("must be a whole number").min(INT32_MIN).max(INT32_MAX),
  );

/** The caller's sequence number: int32, at most 8 digits (transfer table), echoed back. */
export const sequenceNumber = () =>
  wholeNumber(
    z
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(INT32_MIN)
      .max(INT32_MAX)
      .refine((n) => String(Math.abs(n)).length <= 8, "must be at most 8 digits")
      .meta({ minimum: -99_999_999, maximum: 99_999_999 }),
  );

/** Whole dollars in a range (createsen's expected amounts). */
export const wholeDollars = (min: number, max: number) =>
  wholeNumber(
    z
      .number({ error: "must be a number" })
      .int("must be whole dollars")
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );

/**
 * A positive dollar amount (JSON number, at most `maxLength` characters as text, two decimals
 * at most), parsed into integer cents without floating-point arithmetic.
 */
export const amount = (maxLength = 13) => {
  const schema = numeric(
    z
      .number({ error: "must be a number" })
      .transform((n, ctx): Cents => {
        const r = amountCents(n, maxLength);
        if ("cents" in r) return r.cents;
        ctx.addIssue({ code: "custom", message: r.problem });
        return z.NEVER;
      })
      // Two decimals are an extension keyword, not `multipleOf: 0.01`: validators divide in binary
      // floating point, so 0.07 / 0.01 is not whole there and a proxy would refuse a good amount.
      // (Set before `numeric`: `meta` returns a new schema, and the marks below are per schema.)
      .meta({
        exclusiveMinimum: 0,
        maximum: 10 ** maxLength - 1,
        "x-decimal-places": 2,
        "x-max-text-length": maxLength,
        description: `Dollars: greater than zero, at most two decimal places, at most ${maxLength} characters as written`,
      }),
  );
  return checkedText(schema, amountText);
};

/** An int32 carried in a query string (`byDefault`: the value the bank takes when it is absent). */
export const queryInt32 = (opts: { min?: number; max?: number; byDefault?: number } = {}) =>
  z
    .string()
    .regex(/^-?\d{1,10}$/, "must be a whole number")
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(opts.min ?? INT32_MIN, `must be at least ${opts.min ?? INT32_MIN}`)
        .max(opts.max ?? INT32_MAX, `must be at most ${opts.max ?? INT32_MAX}`),
    )
    // Query text, read as a whole number: the document states the number and its range.
    .meta({
      type: "integer",
      format: "int32",
      minimum: opts.min ?? INT32_MIN,
      maximum: opts.max ?? INT32_MAX,
      ...(opts.byDefault !== undefined ? { default: opts.byDefault } : {}),
    });

const DAY = String.raw`(\d{4})-(\d{2})-(\d{2})`;
const TIME = String.raw`[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})`;
const DATE_ONLY = new RegExp(`^${DAY}$`);
const RFC3339 = new RegExp(`^${DAY}${TIME}$`);
/** Either form as one JSON Schema pattern (the calendar check stays the server's). */
export const WIRE_DATE_PATTERN = `^${DAY}(?:${TIME})?$`;

export type WireDate = { kind: "date"; date: string } | { kind: "instant"; date: string; instant: Date };

/** A date in either of the two formats the specification allows: `YYYY-MM-DD` or RFC 3339. */
export const wireDate = () =>
  z
    .string()
    .transform((s, ctx): WireDate => {
      const d = DATE_ONLY.exec(s);
      if (d && isCalendarDate(+d[1], +d[2], +d[3])) return { kind: "date", date: s };
      const t = RFC3339.exec(s);
      if (t && isCalendarDate(+t[1], +t[2], +t[3]) && +t[4] < 24 && +t[5] < 60 && +t[6] < 61) {
        const instant = new Date(s.replace(" ", "T"));
        if (!Number.isNaN(instant.getTime())) return { kind: "instant", date: s.slice(0, 10), instant };
      }
      ctx.addIssue({ code: "custom", message: "must be a date YYYY-MM-DD or an RFC 3339 date-time" });
      return z.NEVER;
    })
    .meta({ pattern: WIRE_DATE_PATTERN, description: "A date YYYY-MM-DD or an RFC 3339 date-time" });

/**
 * One of a few codes, read in any letter case (the canonical spelling is the one listed; others
 * are tolerated). The document lists the canonical codes, so a validating client sends those.
 */
export function codeOf<const T extends readonly [string, ...string[]]>(
  codes: T,
  message: string,
  normalize: (s: string) => string = (s) => s.toUpperCase(),
) {
  return z
    .string()
    .transform(normalize)
    .pipe(z.enum(codes, { error: message }))
    .meta({ enum: [...codes], "x-case-insensitive": true });
}

/** A routing method: ABA or SWIFT (the specification's type field, at most 5 characters). */
export const bankType = () =>
  codeOf(BANK_TYPES, BANK_TYPE_MESSAGE).meta({
    enum: [...BANK_TYPES],
    maxLength: 5,
    "x-case-insensitive": true,
  });

type TextSchema = ReturnType<typeof str>;
/** The schema a rule of the tables in rules.ts stands for. */
export type ContractField<R extends FieldRule> = R extends { kind: "amount" }
  ? ReturnType<typeof amount>
  : R extends { kind: "wholeDollars" }
    ? ReturnType<typeof wholeDollars>
    : R extends { kind: "bankType" }
      ? z.ZodOptional<ReturnType<typeof bankType>>
      : R extends { required: true }
        ? ReturnType<typeof required>
        : z.ZodOptional<TextSchema>;

export function contractField<R extends FieldRule>(rule: R): ContractField<R> {
  const r = rule as FieldRule;
  if (r.kind === "amount") return amount(r.maxLength) as ContractField<R>;
  if (r.kind === "wholeDollars") return wholeDollars(r.min, r.max) as ContractField<R>;
  if (r.kind === "bankType") return bankType().optional() as ContractField<R>;
  let s: TextSchema = r.required ? required(r.max) : str(r.max);
  for (const check of ruleChecks(r)) s = s.refine(...check);
  if (r.aba) s = s.meta(AbaJsonSchema);
  else if (r.code === "account") s = s.meta(AccountNumberJsonSchema);
  else if (r.code === "routing") s = s.meta(RoutingIdJsonSchema);
  return (r.required ? s : s.optional()) as ContractField<R>;
}

/** A request's typed fields as contract schemas, in the table's order. */
export function contractShape<T extends FieldTable>(table: T): { [K in keyof T]: ContractField<T[K]> } {
  return Object.fromEntries(Object.entries(table).map(([k, rule]) => [k, contractField(rule)])) as {
    [K in keyof T]: ContractField<T[K]>;
  };
}

const given = (v: unknown) => v !== undefined && v !== null && v !== "";

/**
 * Fields required unless one of the fields named beside them is given. The rule is checked here
 * and published as `x-required-unless` (JSON Schema cannot say it of query parameters).
 */
export function requiredUnless<S extends z.ZodObject>(
  schema: S,
  rules: { [K in keyof z.input<S> & string]?: readonly (keyof z.input<S> & string)[] },
) {
  return schema
    .superRefine((q, ctx) => {
      const values = q as Record<string, unknown>;
      for (const [field, excuses = []] of Object.entries(rules) as [string, readonly string[]][]) {
        if (given(values[field]) || excuses.some((e) => given(values[e]))) continue;
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `is required unless ${excuses.join(" or ")} is given`,
        });
      }
    })
    .meta({ "x-required-unless": rules });
}

/** A day typed YYYY-MM-DD that is on the calendar: one message for its shape, one for the day. */
export const calendarDay = () =>
  z.string().superRefine((s, ctx) => {
    const problem = isoDayProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
