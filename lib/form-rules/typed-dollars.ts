// Dollars as people type them ("$1,234.50", "1 234.5"): the one reader of typed amounts for every
// form, route handler and filter of the dashboard, and the words for what is wrong with one. The
// bank never reads typed text: its amounts arrive as the contract's JSON numbers (lib/bank-api/money.ts).
import { type Cents, dollarsToCents, formatUsd } from "../bank-api/money.ts";

const TYPED = /^(-?)([\d,\s]*)(\.\d*)?$/;
/** A whole part written with separators: groups of three after the first one to three digits. */
const GROUPED = /^\d{1,3}([,\s]\d{3})+$/;

/**
 * Dollars as people type them ("$1,234.50", "1 234.5", ".5", "20.") as plain decimal text
 * ("1234.50", "1234.5", "0.5", "20"): a leading "$" and blanks around the amount dropped, commas
 * or blanks taken as thousands separators only where they group by three, a missing whole part
 * read as 0 and a final point dropped. Text that is not such an amount ("12,50", "1$0") comes back
 * without its outer blanks, which no reader of decimal text accepts.
 */
export function typedDollarsText(text: string): string {
  const t = withoutDollarSign(text);
  const m = TYPED.exec(t);
  if (!m) return t;
  const [, sign, written, point = ""] = m;
  if (misgrouped(written)) return t;
  const whole = written.replace(/[,\s]/g, "");
  if (!whole) return point.length > 1 ? `${sign}0${point}` : t;
  return `${sign}${whole}${point === "." ? "" : point}`;
}

function withoutDollarSign(text: string): string {
  return text.trim().replace(/^(-?)\s*\$\s*/, "$1");
}

function misgrouped(written: string): boolean {
  return /[,\s]/.test(written) && !GROUPED.test(written);
}

/**
 * Typed text that would be an amount but for a comma or blank where no thousands separator goes
 * ("12,50", "1,2345", "25,00"): most often a decimal comma. Every amount field names this slip
 * in the words below rather than its general rule, so a person sees what to type instead.
 */
export function misplacedSeparator(text: string): boolean {
  const m = TYPED.exec(withoutDollarSign(text));
  return !!m && misgrouped(m[2]);
}

/** What a field says of a misplaced separator, after the field's name (the contract's style). */
export const MISPLACED_SEPARATOR_RULE =
  "must group thousands by three (1,250.00) and use a point for cents (12.50)";
/** The same, as a sentence on its own (the settings and filter fields' style). */
export const MISPLACED_SEPARATOR_SENTENCE =
  "Group thousands by three (1,250.00) and use a point for cents (12.50).";

/** Dollars as people type them, read as dollarsToCents reads decimal text. */
export function typedDollarsToCents(text: string): Cents | null {
  return dollarsToCents(typedDollarsText(text));
}

/** What can be wrong with dollars as typed, in the order it is checked. */
export type TypedDollarsProblem =
  | "missing"
  | "misplacedSeparator"
  | "notDollars"
  | "subCent"
  | "notWhole"
  | "notPositive"
  | "tooLarge";

export type TypedDollars = { ok: true; cents: Cents } | { ok: false; problem: TypedDollarsProblem };

/**
 * Every amount field reads what a person typed here: the text as typedDollarsText reads it, then
 * its cents, or the first thing wrong. No sign is taken (an amount typed is never negative);
 * `positive` refuses zero, `whole` anything but whole dollars, `maxCents` more.
 */
export function readTypedDollars(
  text: string,
  opts: { positive?: boolean; whole?: boolean; maxCents?: Cents } = {},
): TypedDollars {
  const t = typedDollarsText(text);
  const problem = (p: TypedDollarsProblem): TypedDollars => ({ ok: false, problem: p });
  if (t === "") return problem("missing");
  if (misplacedSeparator(text)) return problem("misplacedSeparator");
  if (opts.whole && !/^\d{1,12}$/.test(t)) return problem("notWhole");
  if (!/^\d+(\.\d+)?$/.test(t)) return problem("notDollars");
  const cents = dollarsToCents(t);
  if (cents === null) return problem("subCent");
  if (opts.positive && cents === 0) return problem("notPositive");
  if (opts.maxCents !== undefined && cents > opts.maxCents) return problem("tooLarge");
  return { ok: true, cents };
}

/**
 * The two ways an amount field words a problem: after the field's name, as the contract's
 * messages are ("Amount must ..."), or as a sentence on its own under a settings or filter field.
 */
export const TYPED_DOLLARS_MESSAGES: Record<
  "rule" | "sentence",
  Record<Exclude<TypedDollarsProblem, "tooLarge">, string> & { tooLarge: (maxCents: Cents) => string }
> = {
  rule: {
    missing: "is required",
    misplacedSeparator: MISPLACED_SEPARATOR_RULE,
    notDollars: "must be an amount in dollars, at most two decimals",
    subCent: "must be an amount in dollars, at most two decimals",
    notWhole: "must be whole dollars",
    notPositive: "must be greater than zero",
    tooLarge: (max) => `must be at most ${formatUsd(max)}`,
  },
  sentence: {
    missing: "Enter an amount.",
    misplacedSeparator: MISPLACED_SEPARATOR_SENTENCE,
    notDollars: "Enter an amount in dollars, such as 1,250.00.",
    subCent: "Use at most two decimals (whole cents).",
    notWhole: "Enter whole dollars, such as 25,000.",
    notPositive: "The amount must be more than zero.",
    tooLarge: (max) => `The amount can be at most ${formatUsd(max)}.`,
  },
};

/** The message of a failed reading, in a field's style. */
export function typedDollarsMessage(
  r: Extract<TypedDollars, { ok: false }>,
  style: "rule" | "sentence",
  maxCents = 0,
): string {
  const m = TYPED_DOLLARS_MESSAGES[style];
  return r.problem === "tooLarge" ? m.tooLarge(maxCents) : m[r.problem];
}
