// Approve, cancel or return an incoming wire from the queue. The order of steps is the safety:
// 1. a decision already recorded for the payment ends here (no bank call: someone was first);
// 2. the payment is read from the bank: its status, timestamp and amount are the truth, never the
//    browser's copy (a stale list cannot decide, and the dual-approval limit uses the bank's amount);
// 3. above the limit, the vote is recorded and only a second approver's agreement goes on;
// 4. the decision is recorded, then sent (PUT /v2/payment, or the backup log on a 503), so a
//    decision is never sent twice; the bank's timestamp check makes a late duplicate harmless too.
import "server-only";
import { toCents } from "../accounts/views.ts";
import { conflict, notFound, RouteError } from "../api/errors.ts";
import { type Actor, appendAudit, auditActor } from "../auth/audit.ts";
import type { PaymentRecord } from "../bank-api/payments.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, type BankError } from "../bank-client/errors.ts";
import type {
  IncomingWireAction,
  IncomingWireDecisionRequest,
  IncomingWireDecisionResponse,
} from "../dashboard-api/incoming-wires.ts";
import type { DashboardDb } from "../db/client.ts";
import { actOnIncomingWire, type WireSend } from "../payments/wire-fallback.ts";
import { isIncoming, PRE_APPROVAL, readPayment } from "./queue.ts";
import { castVote, type DecisionRow, liveDecision, recordDecision, updateDecision } from "./store.ts";

const PAST: Record<IncomingWireAction, string> = {
  approve: "approved",
  cancel: "canceled",
  return: "returned",
};

function alreadyDecided(d: DecisionRow): RouteError {
  const when = new Date(d.createdAt).toISOString().slice(11, 19);
  const state =
    d.state === "queued"
      ? "queued for reprocessing"
      : d.bankStatus
        ? `now ${d.bankStatus} at the bank`
        : "being sent to the bank";
  return conflict(
    `This wire was already ${PAST[d.action]} by ${d.decidedByEmail} at ${when} UTC; it is ${state}. Nothing was sent.`,
  );
}

function changed(p: PaymentRecord): RouteError {
  return conflict(
    p.payment_status === PRE_APPROVAL
      ? `This wire changed at the bank since the list was read (updated ${p.time_stamp} UTC). The row has been refreshed; check it and decide again. Nothing was sent.`
      : `This wire is already ${p.payment_status} at the bank (since ${p.time_stamp} UTC). Nothing was sent.`,
    [{ field: "paymentTimestamp", message: `is now ${p.time_stamp} (${p.payment_status})` }],
  );
}

function bankFailure(e: BankError): never {
  throw new BankCallError(e);
}

export async function decideIncomingWire(
  db: DashboardDb,
  bank: BankClient,
  actor: Actor,
  paymentId: string,
  req: IncomingWireDecisionRequest,
  opts: { dualApprovalCents: number },
): Promise<IncomingWireDecisionResponse> {
  const existing = await liveDecision(db, paymentId);
  if (existing) throw alreadyDecided(existing);

  const p = await readPayment(bank, req.accountNumber, paymentId);
  if (!p || !isIncoming(p)) throw notFound(`No incoming wire ${paymentId} on account ${req.accountNumber}.`);
  if (p.payment_status !== PRE_APPROVAL || p.time_stamp !== req.paymentTimestamp) throw changed(p);
  const amountCents = toCents(p.amount, `payment ${paymentId} amount`);

  const me = { id: actor.id, email: actor.email };
  let approvers = [me];
  if (amountCents > opts.dualApprovalCents) {
    const votes = await db.tx((tx) =>
      castVote(tx, {
        paymentId,
        userId: actor.id,
        userEmail: actor.email,
        accountNumber: req.accountNumber,
        action: req.action,
        paymentTimestamp: p.time_stamp,
        amountCents,
      }),
    );
    const current = votes.filter((v) => v.paymentTimestamp === p.time_stamp);
    const agreeing = current.filter((v) => v.action === req.action && v.userId !== actor.id);
    const shown = current.map((v) => ({
      userId: v.userId,
      userEmail: v.userEmail,
      action: v.action,
      at: v.at,
    }));
    if (!agreeing.length) {
      await appendAudit(db, {
        ...auditActor(actor, actor.ip),
        action: "incoming_wire.vote",
        target: paymentId,
        result: "awaiting_second_approval",
        detail: {
          accountNumber: req.accountNumber,
          action: req.action,
          amountCents,
          limitCents: opts.dualApprovalCents,
        },
      });
      return {
        outcome: "awaiting_second_approval",
        paymentId,
        action: req.action,
        bankStatus: p.payment_status,
        message: `Your vote to ${req.action} is recorded. A second approver must agree before it is sent to the bank.`,
        votes: shown,
      };
    }
    approvers = [...agreeing.map((v) => ({ id: v.userId, email: v.userEmail })), me];
  }

  const decision = await recordDecision(db, {
    paymentId,
    accountNumber: req.accountNumber,
    action: req.action,
    paymentTimestamp: p.time_stamp,
    amountCents,
    originatorName: p.originator_name,
    approvers,
    decidedBy: me,
  });
  if (!decision) {
    const other = await liveDecision(db, paymentId);
    throw other ? alreadyDecided(other) : conflict("Another decision on this wire is in progress.");
  }

  const audit = (action: string, result: string, detail: Record<string, unknown>) =>
    appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action,
      target: paymentId,
      result,
      detail: {
        accountNumber: req.accountNumber,
        amountCents,
        approvers: approvers.map((a) => a.email),
        ...detail,
      },
    });

  let sent: WireSend;
  try {
    sent = await actOnIncomingWire(
      bank,
      {
        account_number: req.accountNumber,
        payment_id: paymentId,
        action: req.action,
        timestamp: p.time_stamp,
      },
      {
        beforeSend: async (channel) => {
          if (channel === "backup") await updateDecision(db, decision.id, { channel: "backup" });
        },
      },
    );
  } catch (e) {
    await updateDecision(db, decision.id, { state: "unconfirmed", message: "The send did not complete." });
    throw e;
  }

  const { result, channel } = sent;
  if (result.ok) {
    const state = channel === "backup" ? "queued" : "sent";
    await updateDecision(db, decision.id, {
      state,
      bankStatus: result.data.payment_status,
      bankTimestamp: result.data.payment_timestamp,
    });
    if (channel === "backup")
      await audit("incoming_wire.fallback", "queued", {
        action: req.action,
        primary: sent.primaryError?.message,
        bank: result.data,
      });
    await audit(`incoming_wire.${req.action}`, state === "queued" ? "queued" : result.data.payment_status, {
      channel,
      bank: result.data,
    });
    return {
      outcome: state,
      paymentId,
      action: req.action,
      bankStatus: result.data.payment_status,
      message:
        state === "queued"
          ? `The wire system is down: the ${req.action} is queued for reprocessing and applies when the bank replays it.`
          : `Wire ${PAST[req.action]}; the bank shows it ${result.data.payment_status}.`,
      votes: [],
    };
  }

  const err = result.error;
  if (err.kind === "rejected") {
    // A 400 (stale timestamp, no longer Pre-Approval) or an Errors item: read what changed.
    await updateDecision(db, decision.id, { state: "rejected", message: err.message });
    await audit(`incoming_wire.${req.action}`, "rejected", { channel, bank: err });
    const now = await readPayment(bank, req.accountNumber, paymentId).catch(() => null);
    if (now && (now.payment_status !== PRE_APPROVAL || now.time_stamp !== p.time_stamp)) throw changed(now);
    bankFailure(err);
  }
  if (err.kind === "unavailable" && err.status === 503) {
    // A definite refusal on every path: nothing was done, and the wire may be decided again.
    await updateDecision(db, decision.id, { state: "failed", message: err.message });
    await audit(`incoming_wire.${req.action}`, "failed", { channel, bank: err });
    bankFailure({ ...err, message: `${err.message} Nothing was sent.` });
  }
  // No answer, or not a definite one: the bank may have acted. The queue reconciles from its status.
  await updateDecision(db, decision.id, { state: "unconfirmed", message: err.message });
  await audit(`incoming_wire.${req.action}`, "unconfirmed", { channel, bank: err });
  throw new RouteError(
    503,
    "bank_unavailable",
    `The bank did not confirm the ${req.action} (${err.message}). The row shows the wire's state once the bank answers; it will not be sent again.`,
  );
}
