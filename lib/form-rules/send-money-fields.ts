// The sending-money forms' field names and choices, without zod: a page's first load needs them
// to draw its fields, while the schemas that check them (lib/dashboard-api/, the route handlers'
// own) load when a form is first used.
import { isId } from "../dashboard-api/ids.ts";

export const BENEFICIARY_FIELDS = [
  "beneficiary_name",
  "beneficiary_account_number",
  "beneficiary_address1",
  "beneficiary_address2",
  "beneficiary_address3",
] as const;

export const BENEFICIARY_BANK_FIELDS = [
  "beneficiary_bank_type",
  "beneficiary_bank_routing_id",
  "beneficiary_bank_name",
  "beneficiary_bank_address1",
  "beneficiary_bank_address2",
  "beneficiary_bank_address3",
  "receiving_bank_routing_id",
  "receiving_bank_name",
  "receiving_bank_address1",
  "receiving_bank_address2",
  "receiving_bank_address3",
] as const;

export const INTERMEDIARY_BANK_FIELDS = [
  "intermediary_bank_type",
  "intermediary_bank_routing_id",
  "intermediary_bank_account_number",
  "intermediary_bank_name",
  "intermediary_bank_address1",
  "intermediary_bank_address2",
  "intermediary_bank_address3",
] as const;

/** Everything a saved beneficiary fills in. */
export const TEMPLATE_FIELDS = [
  ...BENEFICIARY_FIELDS,
  ...BENEFICIARY_BANK_FIELDS,
  ...INTERMEDIARY_BANK_FIELDS,
];

export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

/**
 * The saved-beneficiary fields that decide where the money lands: the account and every bank on
 * the way. A change to any of them waits for a second person (docs/decisions.md, "Payee control");
 * the label, the name and the address lines change alone.
 */
export const PAYEE_DESTINATION_FIELDS = [
  "beneficiary_account_number",
  ...BENEFICIARY_BANK_FIELDS,
  ...INTERMEDIARY_BANK_FIELDS,
] as const;
export type PayeeDestinationField = (typeof PAYEE_DESTINATION_FIELDS)[number];

/** Each destination field in words, as a change to it is shown for approval. */
export const PAYEE_FIELD_WORDS: Record<PayeeDestinationField, string> = {
  beneficiary_account_number: "Account number",
  beneficiary_bank_type: "Beneficiary bank identified by",
  beneficiary_bank_routing_id: "Beneficiary bank ABA or BIC",
  beneficiary_bank_name: "Beneficiary bank name",
  beneficiary_bank_address1: "Beneficiary bank address 1",
  beneficiary_bank_address2: "Beneficiary bank address 2",
  beneficiary_bank_address3: "Beneficiary bank address 3",
  receiving_bank_routing_id: "Receiving bank ABA routing number",
  receiving_bank_name: "Receiving bank name",
  receiving_bank_address1: "Receiving bank address 1",
  receiving_bank_address2: "Receiving bank address 2",
  receiving_bank_address3: "Receiving bank address 3",
  intermediary_bank_type: "Intermediary bank identified by",
  intermediary_bank_routing_id: "Intermediary bank ABA or BIC",
  intermediary_bank_account_number: "Intermediary bank account number",
  intermediary_bank_name: "Intermediary bank name",
  intermediary_bank_address1: "Intermediary bank address 1",
  intermediary_bank_address2: "Intermediary bank address 2",
  intermediary_bank_address3: "Intermediary bank address 3",
};

/** Account numbers and bank identifiers: shown in a change as account numbers are, the last four only. */
export const PAYEE_MASKED_FIELDS: ReadonlySet<string> = new Set([
  "beneficiary_account_number",
  "beneficiary_bank_routing_id",
  "receiving_bank_routing_id",
  "intermediary_bank_routing_id",
  "intermediary_bank_account_number",
]);

export const PAYMENT_SORTS = ["date-desc", "date-asc", "amount-desc", "amount-asc"] as const;

export const PAYMENT_PAGE_SIZES = [25, 50, 100] as const;
export const PAYMENT_PAGE_SIZE_MESSAGE = `must be ${PAYMENT_PAGE_SIZES.slice(0, -1).join(", ")} or ${PAYMENT_PAGE_SIZES.at(-1)}`;

export const PAYMENT_DIRECTIONS = ["all", "incoming", "outgoing"] as const;

/** A saved beneficiary's label: the dashboard's own field, not the bank's. */
export const BENEFICIARY_LABEL_MAX = 60;

/** A saved beneficiary's id as a form sends it: "" when none filled the wire. */
export const BENEFICIARY_ID_MESSAGE = "must be a saved beneficiary's id";
export const isBeneficiaryIdText = (s: string) => s === "" || isId(s);

/** The payments page opens on every account at once: "all", or one account number. */
export const ALL_ACCOUNTS = "all";
