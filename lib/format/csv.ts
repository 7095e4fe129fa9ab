// CSV export of history rows (RFC 4180): CRLF line ends, a header row, fields quoted when they
// hold a comma, quote, CR or LF, quotes doubled. Generated in the browser from the rows shown.
import type { HistoryItem } from "../dashboard-api/index.ts";
import { centsToDecimal } from "./money.ts";

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

/** Quotes one field when RFC 4180 requires it. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) is prefixed with
 * an apostrophe, so a description from the bank can never execute in the reader's spreadsheet.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One CSV line from raw values. */
export function csvLine(values: readonly string[]): string {
  return values.map(csvField).join(",");
}

/** Signed decimal dollars: debits negative, credits positive ("-1250.00", "300.10"). */
export function signedAmount(item: Pick<HistoryItem, "amountCents" | "direction">): string {
  const abs = Math.abs(item.amountCents);
  return centsToDecimal(item.direction === "debit" ? -abs : abs);
}

export function historyItemToCsvValues(item: HistoryItem): string[] {
  const text = (s: string | null | undefined) => neutralizeFormula(s ?? "");
  return [
    item.date,
    item.effectiveDate,
    text(item.description),
    item.direction === "debit" ? "Debit" : "Credit",
    signedAmount(item),
    centsToDecimal(item.availableAfterCents),
    text(item.code),
    text(item.sen?.counterpartyAccount),
    text(item.sen?.counterpartyName),
    text(item.sen?.memo),
    text(item.paymentId),
    text(item.idempotencyKey),
    text(item.uniqueId),
    text(item.descriptions.slice(1).join(" | ")),
  ];
}

/** The whole file: header row, then one line per item, each line ended by CRLF. */
export function historyToCsv(items: readonly HistoryItem[]): string {
  const lines = [csvLine(HISTORY_CSV_COLUMNS), ...items.map((i) => csvLine(historyItemToCsvValues(i)))];
  return `${lines.join("\r\n")}\r\n`;
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

/** Parses CSV text (RFC 4180) into rows of fields; used by tests and by anyone re-reading an export. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      quoted = true;
      i++;
    } else if (c === ",") {
      row.push(field);
      field = "";
      i++;
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 2;
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
