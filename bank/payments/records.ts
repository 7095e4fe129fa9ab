// Payment rows. The record fields fixed when a wire is created live in the row's `details`;
// status, dates and message references are columns. The trigger render_payment_record
// (bank/db/functions/payments.sql) lays both into the row's `record`, the JSON that GET /v2/payment returns.
import { randomUUID } from "node:crypto";
import type { InitiatePaymentRequest, PaymentRecordField } from "../../lib/bank-api/payments.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { payments } from "../db/schema.ts";
import { BANK_ABA, BANK_ADDRESS, BANK_NAME } from "./identity.ts";

export type PaymentDirection = "Incoming" | "Outgoing" | "Internal";
/** Record fields fixed at creation, plus the full beneficiary comment for the e-wire summary. */
export type PaymentDetails = Partial<Record<PaymentRecordField | "originator_to_beneficiary_info", string>>;

export type PaymentRow = Pick<
  SqlRow<typeof payments>,
  | "id"
  | "customer_id"
  | "account_number"
  | "direction"
  | "status"
  | "status_timestamp"
  | "amount_cents"
  | "fedwire_type"
  | "fedwire_sub_type"
  | "payment_date"
  | "entry_at"
  | "completed_at"
  | "canceled_at"
  | "imad"
  | "omad"
  | "return_of"
  | "details"
>;

export const PAYMENT_COLUMNS = `id, customer_id, account_number, direction, status, status_timestamp, amount_cents,
  fedwire_type, fedwire_sub_type, payment_date, entry_at, completed_at, canceled_at, imad, omad,
  return_of, details`;

const join = (...parts: (string | undefined)[]) =>
  parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(" ");

/** Country of a BIC (characters 5-6); ABA routing means a US bank. */
function countryOf(type: string | undefined, id: string | undefined): string {
  if (type === "SWIFT" && id && id.length >= 6) return id.slice(4, 6);
  return id ? "US" : "";
}

/** The record fields an outgoing wire carries from its request (originator name and account type are added in SQL). */
export function outgoingDetails(b: InitiatePaymentRequest): PaymentDetails {
  const beneBankType = b.beneficiary_bank_type ?? (b.beneficiary_bank_routing_id ? "ABA" : "");
  return {
    swift_uetr: randomUUID(),
    reference_for_beneficiary: "",
    originator_to_beneficiary_info_line: (b.originator_to_beneficiary_info ?? "").slice(0, 35),
    bank_to_bank_info_line1: "",
    sending_bank_type: "ABA",
    sending_bank_id: BANK_ABA,
    sending_bank_name: BANK_NAME,
    sending_bank_address: BANK_ADDRESS,
    receiving_bank_type: b.receiving_bank_routing_id ? "ABA" : "",
    receiving_bank_id: b.receiving_bank_routing_id ?? "",
    receiving_bank_name: b.receiving_bank_name ?? "",
    receiving_bank_address: join(
      b.receiving_bank_address1,
      b.receiving_bank_address2,
      b.receiving_bank_address3,
    ),
    originator_type: "D",
    originator_id: b.originator_account_number,
    originator_address: "",
    originating_bank_type: "ABA",
    originating_bank_id: BANK_ABA,
    originating_bank_swift_bic: "",
    originating_bank_name: BANK_NAME,
    originating_bank_address: BANK_ADDRESS,
    instructing_bank_type: "",
    instructing_bank_id: "",
    instructing_bank_swift_bic: "",
    instructing_bank_name: "",
    instructing_bank_address: "",
    beneficiary_type: "D",
    beneficiary_id: b.beneficiary_account_number,
    beneficiary_name: b.beneficiary_name,
    beneficiary_address: join(b.beneficiary_address1, b.beneficiary_address2, b.beneficiary_address3),
    beneficiary_country_code: countryOf(beneBankType, b.beneficiary_bank_routing_id) || "US",
    beneficiary_bank_type: beneBankType,
    beneficiary_bank_id: b.beneficiary_bank_routing_id ?? "",
    beneficiary_bank_swift_bic: beneBankType === "SWIFT" ? (b.beneficiary_bank_routing_id ?? "") : "",
    beneficiary_bank_name: b.beneficiary_bank_name ?? "",
    beneficiary_bank_address: join(
      b.beneficiary_bank_address1,
      b.beneficiary_bank_address2,
      b.beneficiary_bank_address3,
    ),
    beneficiary_bank_country_code: countryOf(beneBankType, b.beneficiary_bank_routing_id),
    intermediary_bank_type: b.intermediary_bank_type ?? "",
    intermediary_bank_id: b.intermediary_bank_routing_id ?? b.intermediary_bank_account_number ?? "",
    intermediary_bank_swift_bic:
      b.intermediary_bank_type === "SWIFT" ? (b.intermediary_bank_routing_id ?? "") : "",
    intermediary_bank_name: b.intermediary_bank_name ?? "",
    intermediary_bank_address: join(
      b.intermediary_bank_address1,
      b.intermediary_bank_address2,
      b.intermediary_bank_address3,
    ),
    debit_account_id: b.originator_account_number,
    credit_account_id: b.beneficiary_account_number,
    originator_to_beneficiary_info: b.originator_to_beneficiary_info ?? "",
  };
}
