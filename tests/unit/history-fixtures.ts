import type { HistoryItem } from "../../lib/dashboard-api/index.ts";

let seq = 0;
/** A history item with sensible defaults; pass what the test is about. */
export function historyItem(over: Partial<HistoryItem> = {}): HistoryItem {
  seq++;
  return {
    id: `item-${seq}`,
    uniqueId: `dW5pcXVl${seq}`,
    date: "2026-11-20",
    effectiveDate: "2026-11-20",
    amountCents: 12_345,
    direction: "credit",
    code: "1100",
    description: "DEPOSIT",
    descriptions: ["DEPOSIT"],
    availableAfterCents: 1_000_000,
    paymentId: null,
    idempotencyKey: null,
    memoPosted: false,
    sen: null,
    ...over,
  };
}
