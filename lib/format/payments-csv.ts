// CSV export of the payments page (through the one CSV writer, csv.ts): one line per wire in the
// page's order, first the columns the page shows, then every field of the bank's record by its
// own name, so a reconciliation has the IMAD, OMAD and every party without opening each wire.
import { PAYMENT_RECORD_FIELDS, type PaymentRecord } from "../bank-api/payments.ts";
import type { PaymentRow } from "../dashboard-api/payments.ts";
import { csvCents, csvDocument } from "./csv.ts";

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

/** The amount is ours (integer cents); the record's other fields are the bank's text, written as text. */
export function paymentsToCsv(items: readonly { row: PaymentRow; record: PaymentRecord }[]): string {
  return csvDocument(
    PAYMENT_CSV_COLUMNS,
    items.map(({ row, record }) => [
      row.date,
      row.paymentId,
      row.direction,
      row.status,
      csvCents(row.amountCents),
      row.counterparty,
      row.counterpartyAccount,
      ...PAYMENT_RECORD_FIELDS.map((f) => record[f]),
    ]),
  );
}
