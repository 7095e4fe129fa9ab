// What a saved balance-alert rule says in one line, for the toast after saving it.
import { formatUsd } from "../bank-api/money.ts";
import { maskAccountNumber } from "./money.ts";

export interface RuleLinesInWords {
  belowCents: number | null;
  aboveCents: number | null;
  notifyUsers: boolean;
  emails: string;
}

/** "Alert set: Operating ••••1234 below $10,000.00 and above $90,000.00". */
export function alertSetTitle(accountName: string, accountNumber: string, r: RuleLinesInWords): string {
  const lines = [
    r.belowCents !== null ? `below ${formatUsd(r.belowCents)}` : null,
    r.aboveCents !== null ? `above ${formatUsd(r.aboveCents)}` : null,
  ].filter(Boolean);
  const what = lines.length ? lines.join(" and ") : "with no line";
  return `Alert set: ${accountName} ${maskAccountNumber(accountNumber)} ${what}`;
}

/** Who hears of a crossing: "Once per crossing, to signed-in users and cfo@example.com." */
export function alertAudience(r: RuleLinesInWords): string {
  const who = [r.notifyUsers ? "signed-in users" : null, r.emails ? r.emails : null].filter(Boolean);
  return who.length
    ? `Once per crossing, to ${who.join(" and ")}.`
    : "No one is told: add users or an address.";
}
