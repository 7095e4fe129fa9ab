// CSV export of the payments page (RFC 4180, as the history export): one line per wire in the
// page's order, first the columns the page shows, then every field of the bank's record by its
// own name, so a reconciliation has the IMAD, OMAD and every party without opening each wire.
import { centsToDecimal } from "../bank-api/money.ts";
import { PAYMENT_RECORD_FIELDS, type PaymentRecord } from "../bank-api/payments.ts";
import type { PaymentRow } from "../dashboard-api/payments.ts";
import { csvLine, neutralizeFormula } from "./csv.ts";

export const PAYMENT_CSV_COLUMNS = [
  "Date",
  "Payment ID",
  "Direction",
  "Status",
  "Amount",
  "Counterparty",
  "Counterparty account",
  ...PAYMENT_RECORD_FIELDS,
] as const;

export function paymentsToCsv(items: readonly { row: PaymentRow; record: PaymentRecord }[]): string {
  const lines = [csvLine(PAYMENT_CSV_COLUMNS)];
  for (const { row, record } of items)
    lines.push(
      csvLine(
        [
          row.date,
          row.paymentId,
          row.direction,
          row.status,
          centsToDecimal(row.amountCents),
          row.counterparty,
          row.counterpartyAccount,
          ...PAYMENT_RECORD_FIELDS.map((f) => record[f]),
        ].map(neutralizeFormula),
      ),
    );
  return `${lines.join("\r\n")}\r\n`;
}
