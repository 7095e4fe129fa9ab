// Money display: integer cents in, text for people out. Arithmetic stays in cents (docs/decisions.md, "Amounts").
import { centsToDecimal, dollarsToCents, formatUsd } from "../bank-api/money.ts";

export { centsToDecimal, dollarsToCents, formatUsd };

/** The bank's balance record carries dollars as JSON numbers: shown exactly, or as-is when not exact to the cent. */
export function formatDollarNumber(value: number): string {
  const cents = dollarsToCents(value);
  return cents === null ? String(value) : formatUsd(cents);
}

/** Signed amount as shown in history: debits carry a minus sign, credits a plus. */
export function formatSignedUsd(cents: number, direction: "debit" | "credit"): string {
  return `${direction === "debit" ? "−" : "+"}${formatUsd(Math.abs(cents))}`;
}

/** Share of a whole as a percentage with one decimal, "0.0%" when the whole is zero. */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return "0.0%";
  return `${((part / whole) * 100).toFixed(1)}%`;
}

/** "••••7890": the last four digits, for places where the full number is one click away. */
export function maskAccountNumber(accountNumber: string): string {
  return `••••${accountNumber.slice(-4)}`;
}

/** "Operating ••••7890": an account as a sentence names it; "account 1234567890" when its name is not known. */
export function accountInWords(accountNumber: string, name?: string | null): string {
  return name ? `${name} ${maskAccountNumber(accountNumber)}` : `account ${accountNumber}`;
}
