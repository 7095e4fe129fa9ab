// The sending-money forms' field names and choices, without zod: a page's first load needs them
// to draw its fields, while the schemas that check them (lib/forms/*.ts) load when a form is
// first used.

export const FROM_DESCRIPTION_FIELDS = [
  "AccountFromDescription2",
  "AccountFromDescription3",
  "AccountFromDescription4",
  "AccountFromDescription5",
  "AccountFromDescription6",
  "AccountFromDescription7",
] as const;

export const TO_DESCRIPTION_FIELDS = [
  "AccountToDescription2",
  "AccountToDescription3",
  "AccountToDescription4",
  "AccountToDescription5",
  "AccountToDescription6",
  "AccountToDescription7",
] as const;

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

export const PAYMENT_SORTS = ["date-desc", "date-asc", "amount-desc", "amount-asc"] as const;

export const PAYMENT_PAGE_SIZES = [25, 50, 100] as const;
export const PAYMENT_PAGE_SIZE_MESSAGE = `must be ${PAYMENT_PAGE_SIZES.slice(0, -1).join(", ")} or ${PAYMENT_PAGE_SIZES.at(-1)}`;

export const PAYMENT_DIRECTIONS = ["all", "incoming", "outgoing"] as const;

/** A saved beneficiary's label: the dashboard's own field, not the bank's. */
export const BENEFICIARY_LABEL_MAX = 60;
