// The sending-money forms' schemas for the browser, in zod/mini and built from the contract's
// field tables (lib/bank-api/rules.ts): the SEN transfer, the wire draft, a saved beneficiary, a
// new SEN account and the payments filters. Each mirrors the route handler's schema in
// lib/dashboard-api/ (the same table, the same messages; tests/unit/send-money-forms.test.ts
// holds them together), which checks every request again.
import * as z from "zod/mini";
import { daysBetween } from "../bank-api/dates.ts";
import {
  CREATE_SEN_FIELDS,
  type FieldRule,
  INITIATE_PAYMENT_FIELDS,
  PAYMENT_STATUSES,
  PAYMENT_WINDOW_DAYS,
  ROUTING_PAIRS,
  routingProblem,
  SEN_TRANSFER_FIELDS,
} from "../bank-api/rules.ts";
import {
  bankTypeField,
  idempotencyKeyField,
  moneyTextField,
  optionalTextField,
  textField,
  wholeDollarsTextField,
} from "./contract-fields.ts";

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

const t = SEN_TRANSFER_FIELDS;

export const SenTransferForm = z
  .object({
    idempotencyKey: idempotencyKeyField(),
    AccountNumberFrom: textField(t.AccountNumberFrom),
    AccountNumberTo: textField(t.AccountNumberTo),
    Amount: moneyTextField(t.Amount),
    SerialNumber1: textField(t.SerialNumber1),
    SerialNumber2: textField(t.SerialNumber2),
    ...Object.fromEntries(
      [...FROM_DESCRIPTION_FIELDS, ...TO_DESCRIPTION_FIELDS].map((f) => [f, textField(t[f])]),
    ),
  })
  .check(
    z.refine((v) => v.AccountNumberFrom.trim() !== v.AccountNumberTo.trim(), {
      path: ["AccountNumberTo"],
      message: "must differ from the account the money comes from",
    }),
  );

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

const w = INITIATE_PAYMENT_FIELDS;

/** A required field as the table says; an optional one may also be left empty (""). */
function templateField(f: TemplateField) {
  const rule: FieldRule = w[f];
  if (rule.kind === "bankType") return bankTypeField();
  if (rule.kind !== "text") throw new Error(`${f} is not a text field`);
  return rule.required ? textField(rule) : optionalTextField(rule);
}

const templateShape = Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, templateField(f)])) as Record<
  TemplateField,
  ReturnType<typeof templateField>
>;

/** A routing id is checked against the routing method named beside it, as the contract does. */
const routingChecks = z.superRefine((v: Record<string, unknown>, ctx) => {
  for (const [typeField, idField] of ROUTING_PAIRS) {
    const message = routingProblem(v[typeField] as string | undefined, v[idField] as string | undefined);
    if (message) ctx.addIssue({ code: "custom", path: [idField], message, input: v[idField] });
  }
});

export const BeneficiaryTemplateForm = z.object(templateShape).check(routingChecks);

export const WireDraftForm = z
  .object({
    idempotencyKey: idempotencyKeyField(),
    originator_account_number: textField(w.originator_account_number),
    amount: moneyTextField(w.amount),
    ...templateShape,
    originator_to_beneficiary_info: optionalTextField(w.originator_to_beneficiary_info),
  })
  .check(routingChecks);

export const BeneficiaryForm = z.object({
  label: z
    .string()
    .check(z.trim(), z.minLength(1, "is required"), z.maxLength(60, "must be at most 60 characters")),
  fields: BeneficiaryTemplateForm,
});

const c = CREATE_SEN_FIELDS;
export const CreateSenAccountForm = z.object({
  ExpectedBalance: wholeDollarsTextField(c.ExpectedBalance),
  ExpectedIncomingAmtMonth: wholeDollarsTextField(c.ExpectedIncomingAmtMonth),
  ExpectedOutgoingAmtMonth: wholeDollarsTextField(c.ExpectedOutgoingAmtMonth),
  AltTitleLine1: textField(c.AltTitleLine1),
  AltTitleLine2: textField(c.AltTitleLine2),
  AltTitleLine3: textField(c.AltTitleLine3),
  AltTitleLine4: textField(c.AltTitleLine4),
});

export const PAYMENT_SORTS = ["date-desc", "date-asc", "amount-desc", "amount-asc"] as const;
export const PAYMENT_PAGE_SIZES = [25, 50, 100] as const;
export const PAYMENT_DIRECTIONS = ["all", "incoming", "outgoing"] as const;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z.string().check(
  z.regex(ISO_DAY, "must be a date written YYYY-MM-DD"),
  // Only a date-shaped text is a calendar question (the route handler's schema stops at the shape).
  z.refine(
    (s) => !ISO_DAY.test(s) || new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s,
    "is not a calendar date",
  ),
);

/** The payments page's filters as the form holds them (text); the route handler reads numbers. */
export const PaymentsFilterForm = z
  .object({
    account: z.string().check(z.regex(/^\d{1,20}$/, "must be an account number (digits only)")),
    from: day,
    to: day,
    direction: z.enum(PAYMENT_DIRECTIONS, { error: "must be all, incoming or outgoing" }),
    status: z.enum(["all", ...PAYMENT_STATUSES], { error: `must be all or ${PAYMENT_STATUSES.join(", ")}` }),
    sort: z.enum(PAYMENT_SORTS, { error: `must be one of ${PAYMENT_SORTS.join(", ")}` }),
    page: z.string().check(
      z.regex(/^\d{1,6}$/, "must be a page number"),
      z.refine((p) => !/^\d{1,6}$/.test(p) || Number(p) >= 1, "must be at least 1"),
    ),
    pageSize: z.enum(["25", "50", "100"], { error: "must be 25, 50 or 100" }),
  })
  .check(
    z.superRefine((q, ctx) => {
      if (q.from > q.to)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: "must not be before the start date",
          input: q.to,
        });
      else if (daysBetween(q.from, q.to) > PAYMENT_WINDOW_DAYS)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `must be within ${PAYMENT_WINDOW_DAYS} days of the start date (the bank's limit)`,
          input: q.to,
        });
    }),
  );
export type PaymentsFilters = z.output<typeof PaymentsFilterForm>;
