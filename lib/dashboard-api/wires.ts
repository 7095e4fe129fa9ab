// Outgoing wires, drafts under dual control and saved beneficiaries: POST /api/wires,
// GET /api/drafts, POST /api/drafts/[id]/release|reject, PUT /api/drafts/[id], /api/beneficiaries.
// The wire form is the contract's initiate-payment request with the amount typed as text.
import { z } from "zod";
import { DRAFT_STATUSES } from "../approvals/draft-rules.ts";
import { ibanProblem } from "../bank-api/iban.ts";
import { centsToDollars } from "../bank-api/money.ts";
import { initiatePaymentRequest } from "../bank-api/payments.ts";
import { TEXT_CHECKS } from "../bank-api/rules.ts";
import { idempotencyKey } from "../bank-api/transfers.ts";
import {
  BENEFICIARY_BANK_FIELDS,
  BENEFICIARY_FIELDS,
  BENEFICIARY_ID_MESSAGE,
  BENEFICIARY_LABEL_MAX,
  INTERMEDIARY_BANK_FIELDS,
  isBeneficiaryIdText,
  TEMPLATE_FIELDS,
} from "../form-rules/send-money-fields.ts";
import { typedDollars } from "./money-input.ts";

const w = initiatePaymentRequest.shape;

/**
 * An optional field a form leaves empty (""): empty, or the contract's rule with the contract's
 * own message (a union would say "Invalid input" of a bad code such as a bank type).
 */
const blank = <S extends z.ZodType<unknown, string | undefined>>(s: S) =>
  z
    .string()
    .optional()
    .transform((v, ctx): z.output<S> | "" | undefined => {
      if (v === undefined || v === "") return v;
      const r = s.safeParse(v);
      if (r.success) return r.data;
      for (const i of r.error.issues) ctx.addIssue({ code: "custom", message: i.message, path: i.path });
      return z.NEVER;
    });

export { BENEFICIARY_BANK_FIELDS, BENEFICIARY_FIELDS, INTERMEDIARY_BANK_FIELDS, TEMPLATE_FIELDS };

/**
 * An account number as a person types it: the plain spaces between an IBAN's groups of four are
 * dropped, and its letters written in capitals, before the contract's rule (digits alone, or an
 * IBAN) judges the rest.
 */
const typedAccountNumber = <S extends z.ZodType<unknown, string>>(s: S) =>
  z
    .string()
    .transform((v) => v.replaceAll(" ", "").toUpperCase())
    // One that looks like an IBAN is told what is wrong with it as an IBAN (its country's length,
    // its check digits), instead of the contract's general words; on the field itself, so the
    // error shows beside the others of the form.
    .superRefine((v, ctx) => {
      const message = ibanProblem(v);
      if (message) ctx.addIssue({ code: "custom", message });
    })
    .pipe(s);

const templateShape = {
  beneficiary_name: w.beneficiary_name,
  beneficiary_account_number: typedAccountNumber(w.beneficiary_account_number),
  beneficiary_address1: w.beneficiary_address1,
  beneficiary_address2: blank(w.beneficiary_address2),
  beneficiary_address3: blank(w.beneficiary_address3),
  beneficiary_bank_type: blank(w.beneficiary_bank_type),
  beneficiary_bank_routing_id: blank(w.beneficiary_bank_routing_id),
  beneficiary_bank_name: blank(w.beneficiary_bank_name),
  beneficiary_bank_address1: blank(w.beneficiary_bank_address1),
  beneficiary_bank_address2: blank(w.beneficiary_bank_address2),
  beneficiary_bank_address3: blank(w.beneficiary_bank_address3),
  receiving_bank_routing_id: blank(w.receiving_bank_routing_id),
  receiving_bank_name: blank(w.receiving_bank_name),
  receiving_bank_address1: blank(w.receiving_bank_address1),
  receiving_bank_address2: blank(w.receiving_bank_address2),
  receiving_bank_address3: blank(w.receiving_bank_address3),
  intermediary_bank_type: blank(w.intermediary_bank_type),
  intermediary_bank_routing_id: blank(w.intermediary_bank_routing_id),
  intermediary_bank_account_number: blank(typedAccountNumber(w.intermediary_bank_account_number.unwrap())),
  intermediary_bank_name: blank(w.intermediary_bank_name),
  intermediary_bank_address1: blank(w.intermediary_bank_address1),
  intermediary_bank_address2: blank(w.intermediary_bank_address2),
  intermediary_bank_address3: blank(w.intermediary_bank_address3),
};

/** Drops the fields a form left empty: the bank is sent only what was given. */
export function withoutBlanks<T extends Record<string, unknown>>(v: T): Partial<T> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== "" && x !== undefined)) as Partial<T>;
}

/**
 * The contract's cross-field rules (a routing id checked against the method named beside it),
 * run by the contract's own schema on the wire body the form makes.
 */
function contractChecks(v: Record<string, unknown>, ctx: z.RefinementCtx, amountCents?: number) {
  const body = withoutBlanks({ ...v, amount: amountCents === undefined ? 1 : centsToDollars(amountCents) });
  const r = initiatePaymentRequest.safeParse(body);
  if (r.success) return;
  for (const i of r.error.issues)
    if (i.code === "custom" && String(i.path[0] ?? "").endsWith("_routing_id"))
      ctx.addIssue({ code: "custom", path: i.path, message: i.message });
}

export const BeneficiaryTemplate = z
  .object(templateShape)
  .superRefine((v, ctx) => contractChecks({ ...v, originator_account_number: "0" }, ctx));
export type BeneficiaryTemplate = z.output<typeof BeneficiaryTemplate>;

export const WireDraftRequest = z
  .object({
    /** One per form session: a double submit makes one draft. */
    idempotencyKey: idempotencyKey,
    /** The saved beneficiary that filled the form: it must be approved, and its details unchanged. */
    beneficiaryId: z.string().refine(isBeneficiaryIdText, BENEFICIARY_ID_MESSAGE).optional(),
    originator_account_number: w.originator_account_number,
    amount: typedDollars(w.amount),
    ...templateShape,
    originator_to_beneficiary_info: blank(w.originator_to_beneficiary_info),
  })
  .superRefine((v, ctx) => {
    const { idempotencyKey: _k, beneficiaryId: _b, amount, ...rest } = v;
    contractChecks(rest, ctx, amount);
  });
export type WireDraftInput = z.input<typeof WireDraftRequest>;
export type WireDraftValues = z.output<typeof WireDraftRequest>;

export type { DraftStatus } from "../approvals/draft-rules.ts";
export { DRAFT_STATUSES };

const person = z.object({ id: z.string(), email: z.string() });

/** One destination field of a payee change; account numbers and bank ids masked (••••1234), "" for none. */
export const PayeeFieldChange = z.object({
  field: z.string(),
  /** The field in words. */
  words: z.string(),
  before: z.string(),
  after: z.string(),
  /**
   * The whole old and new values, for the people who decide the change (account and routing
   * numbers unmasked), so that a change keeping the last four digits cannot be approved blind.
   */
  beforeFull: z.string().optional(),
  afterFull: z.string().optional(),
});
export type PayeeFieldChange = z.infer<typeof PayeeFieldChange>;

/** A new beneficiary, or a change to where a saved beneficiary's money lands, and its second person. */
export const PayeeChange = z.object({
  id: z.string(),
  beneficiaryId: z.string(),
  kind: z.enum(["create", "change"]),
  status: z.enum(["pending", "approved", "rejected", "withdrawn"]),
  /** The beneficiary's label when the change was made. */
  label: z.string(),
  fields: z.array(PayeeFieldChange),
  changedBy: person,
  changedAt: z.string(),
  decidedBy: person.nullable(),
  decidedAt: z.string().nullable(),
});
export type PayeeChange = z.infer<typeof PayeeChange>;

export const Draft = z.object({
  id: z.string(),
  kind: z.enum(["wire", "sen"]),
  status: z.enum(DRAFT_STATUSES),
  version: z.number().int(),
  fromAccount: z.string(),
  amountCents: z.number().int(),
  /** Beneficiary name (wire) or destination account (SEN). */
  counterparty: z.string(),
  /** The bank request body as it will be sent (wire names; amount in dollars). */
  request: z.record(z.string(), z.unknown()),
  preparedBy: person,
  preparedAt: z.string(),
  decidedBy: person.nullable(),
  decidedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
  paymentId: z.string().nullable(),
  bankAnswer: z.record(z.string(), z.unknown()).nullable(),
  /** Which path the release took: POST /v2/payment, or the backup log while the wire system was down. */
  channel: z.enum(["primary", "backup"]).nullable(),
  /** The saved beneficiary that filled this wire, if one did. */
  beneficiaryId: z.string().nullable().optional(),
  /**
   * Its changes approved in the last 30 days (and one waiting now), newest first: the release
   * dialog shows them, since a changed payee is where payment fraud starts.
   */
  payeeChanges: z.array(PayeeChange).optional(),
  /**
   * Approvals of this version, first first: one per approver, never the preparer's. A vote whose
   * voter may no longer cast it carries why, of the voter ("is disabled"), and does not count.
   */
  approvals: z.array(
    z.object({ id: z.string(), email: z.string(), at: z.string(), ineligible: z.string().optional() }),
  ),
  /** Distinct eligible approvals it needs before it is sent, as the approval policy says. */
  approvalsRequired: z.number().int(),
  /** Which policy decided that, and why ("Wires over $1,000,000.00: 2 approvers"). */
  approvalPolicy: z.string().optional(),
});
export type Draft = z.infer<typeof Draft>;

export const DraftListQuery = z.object({
  status: z.enum(["open", "all"], { error: "must be open or all" }).default("open"),
});
export const DraftListResponse = z.object({ drafts: z.array(Draft) });
export type DraftListResponse = z.infer<typeof DraftListResponse>;

/** GET /api/wire-system: the wire system seen down (items wait in the bank's backup log), since when. */
export const WireSystemResponse = z.object({
  down: z.boolean(),
  since: z.string().nullable(),
  /** Wires and incoming-wire decisions waiting in the backup log for the bank's replay. */
  queued: z.number().int().min(0),
});
export type WireSystemResponse = z.infer<typeof WireSystemResponse>;

export const DraftResponse = z.object({
  draft: Draft,
  /** What a release did when it sent nothing: an approval recorded, waiting for a second approver. */
  message: z.string().optional(),
});
export type DraftResponse = z.infer<typeof DraftResponse>;

export const ReleaseDraftRequest = z.object({
  /** The version the approver reviewed: a draft changed since then is not released. */
  version: z.number({ error: "must be a number" }).int().min(1),
});
export const RejectDraftRequest = z.object({
  version: z.number({ error: "must be a number" }).int().min(1),
  // The preparer reads it: no invisible formatting characters (line breaks are welcome).
  reason: z
    .string()
    .refine(...TEXT_CHECKS.noHiddenText)
    .trim()
    .min(1, "is required: say why the draft is rejected")
    .max(500, "must be at most 500 characters"),
});
export type RejectDraftInput = z.input<typeof RejectDraftRequest>;

export const WireDuplicatesQuery = z.object({
  beneficiary_account_number: w.beneficiary_account_number,
  amountCents: z
    .string()
    .regex(/^\d{1,15}$/, "must be whole cents")
    .transform(Number),
});
export const WireDuplicatesResponse = z.object({ drafts: z.array(Draft) });
export type WireDuplicatesResponse = z.infer<typeof WireDuplicatesResponse>;

export const BENEFICIARY_STATUSES = ["approved", "new", "changed"] as const;

export const Beneficiary = z.object({
  id: z.string(),
  label: z.string(),
  /** The approved details (for a new one, the details waiting for approval). */
  fields: z.record(z.string(), z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  /** approved: fills wires; new or changed: waits for a second person and fills nothing. */
  status: z.enum(BENEFICIARY_STATUSES),
  pendingChange: PayeeChange.nullable(),
});
export type Beneficiary = z.infer<typeof Beneficiary>;

export const CreateBeneficiaryRequest = z.object({
  label: z
    .string()
    // Before trimming, which would drop a byte-order mark or a line separator at either end unseen.
    .refine(...TEXT_CHECKS.noHiddenText)
    .trim()
    .min(1, "is required")
    .max(BENEFICIARY_LABEL_MAX, `must be at most ${BENEFICIARY_LABEL_MAX} characters`)
    .refine(...TEXT_CHECKS.noControl),
  fields: BeneficiaryTemplate,
});
export type CreateBeneficiaryInput = z.input<typeof CreateBeneficiaryRequest>;
export const BeneficiaryListResponse = z.object({ beneficiaries: z.array(Beneficiary) });
export type BeneficiaryListResponse = z.infer<typeof BeneficiaryListResponse>;
export const BeneficiaryResponse = z.object({ beneficiary: Beneficiary });
export const BeneficiaryDeletedResponse = z.object({ deleted: z.string() });

/** Approve or reject the change the approver reviewed: a change replaced since then is not decided. */
export const DecideBeneficiaryChangeRequest = z.object({
  changeId: z
    .string()
    .refine((s) => s !== "" && isBeneficiaryIdText(s), "must be the id of the change reviewed"),
});
export type DecideBeneficiaryChangeInput = z.input<typeof DecideBeneficiaryChangeRequest>;
export const BeneficiaryDecisionResponse = z.object({
  /** The beneficiary as it stands now: null when a new one was rejected (it is removed). */
  beneficiary: Beneficiary.nullable(),
  change: PayeeChange,
});
export type BeneficiaryDecisionResponse = z.infer<typeof BeneficiaryDecisionResponse>;
