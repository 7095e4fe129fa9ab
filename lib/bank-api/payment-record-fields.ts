// The payment record's fields by wire name, in the specification's groups (its "Payment record"
// table): the contract's list, which the record schema (payments.ts) and the detail page both read.
// Kept apart from the schemas so the page that only shows a record loads no zod.
/** The record's fields in the specification's groups and order. */
export const PAYMENT_FIELD_GROUPS = [
  {
    title: "Identity and status",
    fields: [
      "payment_status",
      "payment_id",
      "payment_date",
      "amount",
      "fedwire_type",
      "fedwire_sub_type",
      "source_indicator",
      "direction",
      "time_stamp",
      "swift_uetr",
    ],
  },
  {
    title: "References",
    fields: [
      "reference_for_beneficiary",
      "senders_reference",
      "originator_to_beneficiary_info_line",
      "bank_to_bank_info_line1",
      "imad",
      "omad",
    ],
  },
  {
    title: "Sending bank",
    fields: ["sending_bank_type", "sending_bank_id", "sending_bank_name", "sending_bank_address"],
  },
  {
    title: "Receiving bank",
    fields: ["receiving_bank_type", "receiving_bank_id", "receiving_bank_name", "receiving_bank_address"],
  },
  {
    title: "Originator",
    fields: ["originator_type", "originator_id", "originator_name", "originator_address"],
  },
  {
    title: "Originating bank",
    fields: [
      "originating_bank_type",
      "originating_bank_id",
      "originating_bank_swift_bic",
      "originating_bank_name",
      "originating_bank_address",
    ],
  },
  {
    title: "Instructing bank",
    fields: [
      "instructing_bank_type",
      "instructing_bank_id",
      "instructing_bank_swift_bic",
      "instructing_bank_name",
      "instructing_bank_address",
    ],
  },
  {
    title: "Beneficiary",
    fields: [
      "beneficiary_type",
      "beneficiary_id",
      "beneficiary_name",
      "beneficiary_address",
      "beneficiary_country_code",
    ],
  },
  {
    title: "Beneficiary bank",
    fields: [
      "beneficiary_bank_type",
      "beneficiary_bank_id",
      "beneficiary_bank_swift_bic",
      "beneficiary_bank_name",
      "beneficiary_bank_address",
      "beneficiary_bank_country_code",
    ],
  },
  {
    title: "Intermediary bank",
    fields: [
      "intermediary_bank_type",
      "intermediary_bank_id",
      "intermediary_bank_swift_bic",
      "intermediary_bank_name",
      "intermediary_bank_address",
    ],
  },
  { title: "Dates", fields: ["entry_date", "completion_date", "cancel_date"] },
  { title: "Accounts", fields: ["debit_account_type", "debit_account_id", "credit_account_id"] },
] as const satisfies readonly { title: string; fields: readonly string[] }[];
export type PaymentDetailField = (typeof PAYMENT_FIELD_GROUPS)[number]["fields"][number];
