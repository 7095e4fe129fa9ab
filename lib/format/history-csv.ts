// CSV export of history rows, generated in the browser from the rows shown, through the one
// CSV writer (csv.ts).
import type { HistoryItem } from "../dashboard-api/index.ts";
import { type CsvCell, csvCents, csvDocument } from "./csv.ts";

export const HISTORY_CSV_COLUMNS = [
  "Date",
  "Effective date",
  "Description",
  "Debit/Credit",
  "Amount",
  "Balance after",
  "Transaction code",
  "Counterparty account",
  "Counterparty name",
  "Memo",
  "Payment ID",
  "Idempotency key",
  "Unique ID",
  "Additional description",
] as const;

/** Signed cents: debits negative, credits positive. */
export function signedCents(item: Pick<HistoryItem, "amountCents" | "direction">): number {
  const abs = Math.abs(item.amountCents);
  return item.direction === "debit" ? -abs : abs;
}

export function historyItemToCsvCells(item: HistoryItem): CsvCell[] {
  return [
    item.date,
    item.effectiveDate,
    item.description,
    item.direction === "debit" ? "Debit" : "Credit",
    csvCents(signedCents(item)),
    csvCents(item.availableAfterCents),
    item.code,
    item.sen?.counterpartyAccount,
    item.sen?.counterpartyName,
    item.sen?.memo,
    item.paymentId,
    item.idempotencyKey,
    item.uniqueId,
    item.descriptions.slice(1).join(" | "),
  ];
}

/** The whole file: header row, then one line per item. */
export function historyToCsv(items: readonly HistoryItem[]): string {
  return csvDocument(HISTORY_CSV_COLUMNS, items.map(historyItemToCsvCells));
}

/** "transactions-1234567890-2026-10-24-to-2026-11-22.csv" (plus "-filtered" when narrowed). */
export function historyCsvFilename(
  accountNumber: string,
  from: string,
  to: string,
  filtered = false,
): string {
  const safe = accountNumber.replace(/[^0-9A-Za-z]/g, "");
  return `transactions-${safe}-${from}-to-${to}${filtered ? "-filtered" : ""}.csv`;
}
