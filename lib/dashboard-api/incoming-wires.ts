// The incoming-wire queue, its decisions and the e-wire summaries, as the dashboard API shapes
// them. Amounts are integer cents; instants are ISO text.
import { z } from "zod";
import { calendarDay } from "../bank-api/fields.ts";
import { PAYMENT_ACTIONS, PAYMENT_TIMESTAMP } from "../bank-api/payments.ts";

export const IncomingWireAction = z.enum(PAYMENT_ACTIONS);
export type IncomingWireAction = z.infer<typeof IncomingWireAction>;

export const IncomingWireVote = z.object({
  /** Who voted: the dialog tells an approver their own vote from another's. */
  userId: z.string(),
  userEmail: z.string(),
  action: IncomingWireAction,
  at: z.string(),
  /** Why this vote no longer counts, of its voter ("is disabled", "is no longer an approver (now viewer)"), when it does not. */
  ineligible: z.string().optional(),
});
export type IncomingWireVote = z.infer<typeof IncomingWireVote>;

/**
 * A wire's place in the queue: `pending` waits for a decision, `awaiting_second_approval` holds a
 * first vote above the limit, `sending` and `unconfirmed` wait for the bank's answer, `queued`
 * was logged through the backup during an outage and waits for the replay.
 */
export const QueueState = z.enum(["pending", "awaiting_second_approval", "sending", "unconfirmed", "queued"]);
export type QueueState = z.infer<typeof QueueState>;

export const IncomingWire = z.object({
  paymentId: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  amountCents: z.number().int(),
  originatorName: z.string(),
  originatorAccount: z.string(),
  sendingBankName: z.string(),
  sendingBankId: z.string(),
  /** originator_to_beneficiary_info_line */
  info: z.string(),
  reference: z.string(),
  /** When the wire arrived (entry_date). */
  receivedAt: z.string(),
  /** The record's payment_timestamp: sent with the action, so a stale list cannot decide. */
  paymentTimestamp: z.string(),
  state: QueueState,
  needsTwoApprovers: z.boolean(),
  /** Distinct approvers who must agree, and the policy that says so, in words. */
  approvalsRequired: z.number().int(),
  approvalPolicy: z.string(),
  votes: z.array(IncomingWireVote),
  /** The action sent or queued, while the wire waits for the bank. */
  pendingAction: IncomingWireAction.nullable(),
});
export type IncomingWire = z.infer<typeof IncomingWire>;

export const DecidedWire = z.object({
  paymentId: z.string(),
  accountNumber: z.string(),
  amountCents: z.number().int(),
  originatorName: z.string(),
  action: IncomingWireAction,
  /** Every approver who agreed, the one whose agreement sent it last. */
  decidedBy: z.array(z.string()),
  decidedAt: z.string(),
  channel: z.enum(["primary", "backup"]),
  /** sent, queued, unconfirmed, done */
  state: z.string(),
  /** The payment's status at the bank as last read: In-Progress, Complete, Canceled… */
  bankStatus: z.string().nullable(),
});
export type DecidedWire = z.infer<typeof DecidedWire>;

// GET /api/incoming-wires
export const IncomingWiresResponse = z.object({
  wires: z.array(IncomingWire),
  decidedToday: z.array(DecidedWire),
  asOf: z.string(),
});
export type IncomingWiresResponse = z.infer<typeof IncomingWiresResponse>;

// POST /api/incoming-wires/[paymentId]
export const IncomingWireDecisionRequest = z.object({
  accountNumber: z.string().trim().min(1, "is required").max(20, "must be at most 20 characters"),
  action: IncomingWireAction,
  paymentTimestamp: z
    .string()
    .regex(PAYMENT_TIMESTAMP, "must be the payment timestamp YYYY-MM-DD hh:mm:ss.fff"),
});
export type IncomingWireDecisionRequest = z.infer<typeof IncomingWireDecisionRequest>;

export const IncomingWireDecisionResponse = z.object({
  /** sent: the bank took it; queued: logged through the backup; awaiting_second_approval: a vote. */
  outcome: z.enum(["sent", "queued", "awaiting_second_approval"]),
  paymentId: z.string(),
  action: IncomingWireAction,
  bankStatus: z.string().nullable(),
  message: z.string(),
  votes: z.array(IncomingWireVote),
});
export type IncomingWireDecisionResponse = z.infer<typeof IncomingWireDecisionResponse>;

// GET /api/wire-summaries?accountNumber&date&direction, or ?uniqueId (from a history item)
export const WireSummariesQuery = z
  .object({
    accountNumber: z.string().trim().max(20, "must be at most 20 characters").optional(),
    date: calendarDay().optional(),
    direction: z.enum(["I", "O"], { error: "must be I (incoming) or O (outgoing)" }).optional(),
    uniqueId: z.string().max(1000, "must be at most 1000 characters").optional(),
  })
  .superRefine((q, ctx) => {
    if (q.uniqueId) return;
    for (const f of ["accountNumber", "date", "direction"] as const)
      if (!q[f]) ctx.addIssue({ code: "custom", path: [f], message: "is required unless uniqueId is given" });
  });
export type WireSummariesQuery = z.infer<typeof WireSummariesQuery>;

export const WireSummary = z.object({
  transactionNumber: z.string(),
  amountCents: z.number().int(),
  direction: z.string(),
  fedwireType: z.string(),
  fedwireSubType: z.string(),
  reference: z.string(),
  sendingBankId: z.string(),
  sendingBankName: z.string(),
  originatorId: z.string(),
  originatorName: z.string(),
  beneficiaryId: z.string(),
  beneficiaryName: z.string(),
  /** The account whose side of the wire this summary is. */
  accountNumber: z.string(),
  info: z.array(z.string()),
  imad: z.string(),
  status: z.string(),
  uniqueId: z.string(),
});
export type WireSummary = z.infer<typeof WireSummary>;

export const WireSummariesResponse = z.object({
  summaries: z.array(WireSummary),
  /** Set when the bank found none for a unique id (E0501): the wire has not settled yet. */
  notice: z.string().nullable(),
});
export type WireSummariesResponse = z.infer<typeof WireSummariesResponse>;
