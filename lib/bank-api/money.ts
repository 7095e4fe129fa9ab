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
