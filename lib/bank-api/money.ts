// Money crosses the wire as JSON numbers in dollars; inside it is always integer cents.
// Conversions go through the decimal text, never through floating-point arithmetic.

export type Cents = number;

const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/** Parses a dollar amount (JSON number or decimal text) into integer cents; null if it is not exact to the cent. */
export function dollarsToCents(value: number | string): Cents | null {
  const text = typeof value === "number" ? numberText(value) : value.trim();
  if (text === null) return null;
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const whole = m[2].replace(/^0+(?=\d)/, "");
  const frac = (m[3] ?? "").padEnd(2, "0");
  const cents = Number(whole + frac);
  if (!Number.isSafeInteger(cents)) return null;
  return m[1] ? -cents : cents;
}

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

function numberText(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  const t = String(n);
  // 1e21 and 1e-7 style output is never a valid amount.
  return /e/i.test(t) ? null : t;
}

/** Integer cents to the decimal text "1234.50". */
export function centsToDecimal(cents: Cents): string {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.trunc(abs / 100);
  const frac = String(abs % 100).padStart(2, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}

/** Integer cents to the JSON number of dollars the wire carries (parsed from exact decimal text). */
export function centsToDollars(cents: Cents): number {
  return Number(centsToDecimal(cents));
}

/** Webhook balances: zero-padded strings of cents (docs/decisions.md), at least nine digits. */
export function centsToPaddedString(cents: Cents, width = 9): string {
  const digits = String(Math.abs(cents)).padStart(width, "0");
  return cents < 0 ? `-${digits}` : digits;
}

/** Formats cents for people: "$1,234.50". */
export function formatUsd(cents: Cents): string {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.trunc(abs / 100).toLocaleString("en-US");
  return `${neg ? "−" : ""}$${whole}.${String(abs % 100).padStart(2, "0")}`;
}
