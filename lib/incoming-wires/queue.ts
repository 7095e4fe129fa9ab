// The approval queue: every incoming wire in Pre-Approval across the customer's accounts, oldest
// first, with the dashboard's votes and open decisions beside it. Reading the queue also settles
// open decisions: once the bank shows a payment's status moved, its decision takes that state.
import "server-only";
import { toCents } from "../accounts/views.ts";
import { policySetNow, votersNow } from "../approvals/facts.ts";
import {
  evaluate,
  type PaymentFacts,
  type PolicySet,
  type VoterState,
  whyIneligible,
} from "../approvals/policy.ts";
import { appendAudit } from "../audit/log.ts";
import { type PaymentRecord, paymentWindowBegin } from "../bank-api/payments.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import type { BankClient } from "../bank-client/client.ts";
import { unwrap } from "../bank-client/errors.ts";
import { config } from "../config.ts";
import type {
  DecidedWire,
  IncomingWire,
  IncomingWiresResponse,
  QueueState,
} from "../dashboard-api/incoming-wires.ts";
import type { Queryable } from "../db/client.ts";
import { type DecisionRow, recentAndOpenDecisions, updateDecision, type VoteRow, votesFor } from "./store.ts";

const PAGE_SIZE = 1000;
/** A decision with no answer yet is left alone this long: its request may still be on its way. */
const UNCONFIRMED_GRACE_MS = 15_000;
/** A decision stuck in `sending` this long lost its process mid-send: its fate is read from the bank. */
const SENDING_GRACE_MS = 60_000;

/** Every wire of one account in the widest window the bank allows, page by page. */
export async function accountPayments(
  bank: BankClient,
  accountNumber: string,
  bankAt: Date = bankNow(),
): Promise<PaymentRecord[]> {
  const begin = paymentWindowBegin(bankAt);
  const out: PaymentRecord[] = [];
  for (let page = 1; ; page++) {
    const rows = unwrap(
      await bank.call("listPayments", {
        query: { account_number: accountNumber, begin_date: begin, page_size: PAGE_SIZE, page_number: page },
      }),
    );
    out.push(...rows);
    if (rows.length < PAGE_SIZE) return out;
  }
}

/** One payment by id, or null when the account has no such payment. */
export async function readPayment(
  bank: BankClient,
  accountNumber: string,
  paymentId: string,
): Promise<PaymentRecord | null> {
  const rows = unwrap(
    await bank.call("listPayments", { query: { account_number: accountNumber, payment_id: paymentId } }),
  );
  return rows.find((r) => r.payment_id === paymentId) ?? null;
}

export function isIncoming(p: PaymentRecord): boolean {
  return p.direction === "Incoming" && p.credit_account_id !== "" && p.payment_id.length > 0;
}

/** The start of today in `timeZone`, as an instant. */
export function startOfDay(now: Date, timeZone: string): Date {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(now);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const sinceMidnight = ((n("hour") * 60 + n("minute")) * 60 + n("second")) * 1000 + now.getMilliseconds();
  return new Date(now.getTime() - sinceMidnight);
}

export function toQueueWire(
  p: PaymentRecord,
  accountName: string,
  policies: PolicySet,
  votes: VoteRow[],
  open: DecisionRow | undefined,
  voters: ReadonlyMap<string, VoterState> = new Map(),
  now = Date.now(),
): IncomingWire {
  const amountCents = toCents(p.amount, `payment ${p.payment_id} amount`);
  const current = votes.filter((v) => v.paymentTimestamp === p.time_stamp);
  let state: QueueState = "pending";
  if (open) state = open.state === "queued" ? "queued" : open.state === "sending" ? "sending" : "unconfirmed";
  else if (current.length) state = "awaiting_second_approval";
  const facts: PaymentFacts = {
    rail: "incoming_wire",
    amountCents,
    sourceAccount: p.credit_account_id,
    preparerId: null,
  };
  const requirement = evaluate(facts, policies, now);
  // Each vote as it would be counted now: one whose voter may no longer cast it is struck, with why.
  const why = (userId: string) => {
    const voter = voters.get(userId);
    return voter ? whyIneligible(voter, facts, requirement, now, config().timeZone) : null;
  };
  return {
    paymentId: p.payment_id,
    accountNumber: p.credit_account_id,
    accountName,
    amountCents,
    originatorName: p.originator_name,
    originatorAccount: p.originator_id,
    sendingBankName: p.sending_bank_name,
    sendingBankId: p.sending_bank_id,
    info: p.originator_to_beneficiary_info_line,
    reference: p.reference_for_beneficiary,
    receivedAt: p.entry_date || p.time_stamp,
    paymentTimestamp: p.time_stamp,
    state,
    needsTwoApprovers: requirement.approvers > 1,
    approvalsRequired: Math.max(requirement.approvers, 1),
    approvalPolicy: requirement.why,
    votes: current.map((v) => {
      const struck = why(v.userId);
      return {
        userId: v.userId,
        userEmail: v.userEmail,
        action: v.action,
        at: v.at,
        ...(struck ? { ineligible: struck } : {}),
      };
    }),
    pendingAction: open?.action ?? null,
  };
}

/**
 * Moves an open decision to its outcome from the payment as the bank shows it now: a status
 * other than Pre-Approval means the action (or someone else's) took effect; an unconfirmed one
 * still in Pre-Approval with the same timestamp never reached the bank and is marked failed.
 */
export async function settleOpenDecision(
  db: Queryable,
  d: DecisionRow,
  p: PaymentRecord | null,
  now: Date,
): Promise<DecisionRow> {
  if (!p) return d;
  const moved = p.payment_status !== "Pre-Approval" || p.time_stamp !== d.paymentTimestamp;
  const age = now.getTime() - new Date(d.updatedAt).getTime();
  if (moved) {
    const next = { ...d, state: "done" as const, bankStatus: p.payment_status, bankTimestamp: p.time_stamp };
    await updateDecision(db, d.id, {
      state: "done",
      bankStatus: p.payment_status,
      bankTimestamp: p.time_stamp,
    });
    await appendAudit(db, {
      actorId: d.decidedById,
      actorEmail: d.decidedByEmail,
      action: `incoming_wire.${d.action}.settled`,
      target: d.paymentId,
      result: p.payment_status,
      detail: {
        accountNumber: d.accountNumber,
        channel: d.channel,
        from: d.state,
        bankTimestamp: p.time_stamp,
      },
    });
    return next;
  }
  const stuck =
    (d.state === "unconfirmed" && age > UNCONFIRMED_GRACE_MS) ||
    (d.state === "sending" && age > SENDING_GRACE_MS);
  if (stuck) {
    const message = "The bank did not take the decision; the wire is still waiting.";
    await updateDecision(db, d.id, { state: "failed", message });
    await appendAudit(db, {
      actorId: d.decidedById,
      actorEmail: d.decidedByEmail,
      action: `incoming_wire.${d.action}`,
      target: d.paymentId,
      result: "failed",
      detail: { accountNumber: d.accountNumber, reason: message, bankStatus: p.payment_status },
    });
    return { ...d, state: "failed", message };
  }
  return d;
}

export async function readQueue(
  db: Queryable,
  bank: BankClient,
  opts: { timeZone?: string; now?: Date } = {},
): Promise<IncomingWiresResponse> {
  const now = opts.now ?? new Date();
  const timeZone = opts.timeZone ?? config().timeZone;
  const accounts = unwrap(await bank.call("accountList")).ResponseData.flatMap((d) => d.CUSTACCT);
  const names = new Map(accounts.map((a) => [a.ACTNBR, a.SHORTNAME || a.ACTNBR]));
  // The bank's window ends on its own today, which a sandbox bank's clock may put days ahead.
  const bankAt = opts.now ?? bankNow();
  const perAccount = await Promise.all(accounts.map((a) => accountPayments(bank, a.ACTNBR, bankAt)));
  const byId = new Map<string, PaymentRecord>();
  for (const list of perAccount) for (const p of list) if (isIncoming(p)) byId.set(p.payment_id, p);

  const decisions = await recentAndOpenDecisions(db, startOfDay(now, timeZone));
  const settled: DecisionRow[] = [];
  for (const d of decisions) {
    const isOpen = d.state === "sending" || d.state === "queued" || d.state === "unconfirmed";
    settled.push(isOpen ? await settleOpenDecision(db, d, byId.get(d.paymentId) ?? null, now) : d);
  }
  const live = new Map<string, DecisionRow>();
  for (const d of settled) if (d.state !== "failed" && d.state !== "rejected") live.set(d.paymentId, d);

  const pending = [...byId.values()].filter((p) => p.payment_status === "Pre-Approval");
  const votes = await votesFor(
    db,
    pending.map((p) => p.payment_id),
  );
  const votesById = new Map<string, VoteRow[]>();
  for (const v of votes) votesById.set(v.paymentId, [...(votesById.get(v.paymentId) ?? []), v]);

  const policies = await policySetNow(db);
  const voterList = await votersNow(db, [...new Set(votes.map((v) => v.userId))], {
    lock: false,
    now: now.getTime(),
  });
  const voters = new Map(voterList.map((v) => [v.id, v]));
  const wires: IncomingWire[] = [];
  for (const p of pending) {
    const d = live.get(p.payment_id);
    // A decision the bank already took (sent, done) leaves the queue even before the list shows it.
    if (d && (d.state === "sent" || d.state === "done")) continue;
    wires.push(
      toQueueWire(
        p,
        names.get(p.credit_account_id) ?? p.credit_account_id,
        policies,
        votesById.get(p.payment_id) ?? [],
        d,
        voters,
        now.getTime(),
      ),
    );
  }
  wires.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.paymentId.localeCompare(b.paymentId));

  const dayStart = startOfDay(now, timeZone).getTime();
  const decidedToday: DecidedWire[] = settled
    .filter((d) => d.state !== "failed" && d.state !== "rejected" && Date.parse(d.createdAt) >= dayStart)
    .map((d) => ({
      paymentId: d.paymentId,
      accountNumber: d.accountNumber,
      amountCents: d.amountCents,
      originatorName: d.originatorName,
      action: d.action,
      decidedBy: d.approvers.map((a) => a.email),
      decidedAt: d.createdAt,
      channel: d.channel,
      state: d.state,
      bankStatus: byId.get(d.paymentId)?.payment_status ?? d.bankStatus,
    }));

  return { wires, decidedToday, asOf: now.toISOString() };
}
