// The wire draft and saved-beneficiary forms' schemas in zod/mini for the browser, built from the contract's field tables
// (lib/bank-api/rules.ts). It mirrors the route handler's schema in lib/dashboard-api/ (the same
// table, the same messages; tests/unit/send-money-forms.test.ts holds them together), which checks
// every request again. One module per form, so a page loads only its own.
import * as z from "zod/mini";
import {
  type FieldRule,
  INITIATE_PAYMENT_FIELDS,
  ROUTING_PAIRS,
  routingProblem,
  TEXT_CHECKS,
} from "../bank-api/rules.ts";
import {
  bankTypeField,
  idempotencyKeyField,
  moneyTextField,
  optionalTextField,
  textField,
} from "./contract-fields.ts";
import {
  BENEFICIARY_ID_MESSAGE,
  BENEFICIARY_LABEL_MAX,
  isBeneficiaryIdText,
  TEMPLATE_FIELDS,
  type TemplateField,
} from "./send-money-fields.ts";

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
    beneficiaryId: z.optional(z.string().check(z.refine(isBeneficiaryIdText, BENEFICIARY_ID_MESSAGE))),
    originator_account_number: textField(w.originator_account_number),
    amount: moneyTextField(w.amount),
    ...templateShape,
    originator_to_beneficiary_info: optionalTextField(w.originator_to_beneficiary_info),
  })
  .check(routingChecks);

export const BeneficiaryForm = z.object({
  label: z
    .string()
    .check(
      z.refine(...TEXT_CHECKS.noHiddenText),
      z.trim(),
      z.minLength(1, "is required"),
      z.maxLength(BENEFICIARY_LABEL_MAX, `must be at most ${BENEFICIARY_LABEL_MAX} characters`),
      z.refine(...TEXT_CHECKS.noControl),
    ),
  fields: BeneficiaryTemplateForm,
});
