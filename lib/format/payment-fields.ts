// The payment record's fields in words, for the detail view. The groups and the wire names are
// the contract's (lib/bank-api/payment-record-fields.ts); the words are the page's.
import type { PaymentDetailField } from "../bank-api/payment-record-fields.ts";

/** Fields whose words cannot be read off their group and suffix. */
const FIELD_WORDS: Partial<Record<PaymentDetailField, string>> = {
  payment_status: "Status",
  payment_id: "Payment ID",
  payment_date: "Payment date",
  amount: "Amount",
  fedwire_type: "Fedwire type",
  fedwire_sub_type: "Fedwire subtype",
  source_indicator: "Source",
  direction: "Direction",
  time_stamp: "Last status change",
  swift_uetr: "SWIFT UETR",
  reference_for_beneficiary: "Reference for the beneficiary",
  senders_reference: "Sender's reference",
  originator_to_beneficiary_info_line: "Message to the beneficiary",
  bank_to_bank_info_line1: "Bank-to-bank information",
  imad: "IMAD (input message reference)",
  omad: "OMAD (output message reference)",
  entry_date: "Entered",
  completion_date: "Completed",
  cancel_date: "Canceled",
  debit_account_type: "Debit account type",
  debit_account_id: "Debit account",
  credit_account_id: "Credit account",
};

/** A party's or bank's field by its ending, under the group's heading ("Beneficiary bank" › "SWIFT BIC"). */
const SUFFIX_WORDS: [suffix: string, words: string][] = [
  ["_swift_bic", "SWIFT BIC"],
  ["_country_code", "Country"],
  ["_type", "Identified by"],
  ["_id", "Routing number or account"],
  ["_name", "Name"],
  ["_address", "Address"],
];

/** The field's name in words, as the detail page labels it (the wire name stays in the raw record). */
export function paymentFieldWords(field: PaymentDetailField): string {
  const own = FIELD_WORDS[field];
  if (own) return own;
  return SUFFIX_WORDS.find(([suffix]) => field.endsWith(suffix))?.[1] ?? field;
}

/** Fields holding an instant (UTC ISO): shown in the business time zone. */
export const PAYMENT_INSTANT_FIELDS = new Set<PaymentDetailField>([
  "entry_date",
  "completion_date",
  "cancel_date",
]);
