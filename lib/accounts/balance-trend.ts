// The balance trend of an account over a range, from its history: each transaction carries the
// available balance after it, so the end-of-day balance is the last one of each day, and days
// without a transaction keep the day before's.

import { addDays } from "../bank-api/dates.ts";
import type { HistoryItem } from "../dashboard-api/index.ts";

export interface TrendPoint {
  day: string;
  cents: number;
}

/** End-of-day available balance for every day of the range; empty when it has no transaction. */
export function dailyBalances(
  items: readonly Pick<HistoryItem, "date" | "amountCents" | "direction" | "availableAfterCents">[],
  order: "A" | "D",
  from: string,
  to: string,
): TrendPoint[] {
  if (!items.length) return [];
  const chronological = order === "D" ? [...items].reverse() : items;
  const first = chronological[0];
  const signed = first.direction === "credit" ? Math.abs(first.amountCents) : -Math.abs(first.amountCents);
  let balance = first.availableAfterCents - signed;
  const endOfDay = new Map<string, number>();
  for (const item of chronological) endOfDay.set(item.date, item.availableAfterCents);
  const points: TrendPoint[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    balance = endOfDay.get(day) ?? balance;
    points.push({ day, cents: balance });
  }
  return points;
}
