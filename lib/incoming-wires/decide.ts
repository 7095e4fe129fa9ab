// Approve, cancel or return an incoming wire from the queue. The order of steps is the safety:
// 1. a decision already recorded for the payment ends here (no bank call: someone was first);
// 2. the payment is read from the bank: its status, timestamp and amount are the truth, never the
//    browser's copy (a stale list cannot decide, and the dual-approval limit uses the bank's amount);
// 3. when the approval policy asks for two, the vote is recorded and only a second approver's
//    agreement goes on, counting only votes whose voters may still cast them;
// 4. the decision is recorded, then sent (PUT /v2/payment, or the backup log on a 503), so a
//    decision is never sent twice; the bank's timestamp check makes a late duplicate harmless too.
import "server-only";
import { toCents } from "../accounts/views.ts";
import { policySetNow, votersNow } from "../approvals/facts.ts";
import { evaluate, type PaymentFacts, tally } from "../approvals/policy.ts";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import type { PaymentRecord } from "../bank-api/payments.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, type BankError } from "../bank-client/errors.ts";
import { config } from "../config.ts";
import type {
  IncomingWireAction,
  IncomingWireDecisionRequest,
  IncomingWireDecisionResponse,
} from "../dashboard-api/incoming-wires.ts";
import type { DashboardDb } from "../db/client.ts";
import { actOnIncomingWire, type WireSend } from "../payments/wire-fallback.ts";
import { conflict, forbidden, notFound, RouteError } from "../route-kit/errors.ts";
import { isIncoming, readPayment } from "./queue.ts";
import {
  castVote,
  type DecisionRow,
  liveDecision,
  recordDecision,
  updateDecision,
  type VoteRow,
} from "./store.ts";

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
    p.payment_status === "Pre-Approval"
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
): Promise<IncomingWireDecisionResponse> {
  const existing = await liveDecision(db, paymentId);
  if (existing) throw alreadyDecided(existing);

  const p = await readPayment(bank, req.accountNumber, paymentId);
  if (!p || !isIncoming(p)) throw notFound(`No incoming wire ${paymentId} on account ${req.accountNumber}.`);
  if (p.payment_status !== "Pre-Approval" || p.time_stamp !== req.paymentTimestamp) throw changed(p);
  const amountCents = toCents(p.amount, `payment ${paymentId} amount`);

  const me = { id: actor.id, email: actor.email };
  const facts: PaymentFacts = {
    rail: "incoming_wire",
    amountCents,
    sourceAccount: req.accountNumber,
    preparerId: null,
  };
  // The vote, the count of every agreeing vote whose voter may still cast it (voters read FOR
  // SHARE) and the decision's record are one transaction under the payment's lock: a demotion or
  // disabling at the same moment waits for it or is seen by it.
  const judged = await db.tx(async (tx) => {
    const set = await policySetNow(tx);
    const now = Date.now();
    const requirement = evaluate(facts, set, now);
    let voterIds = [me.id];
    let current: VoteRow[] = [];
    if (requirement.approvers > 1) {
      const votes = await castVote(tx, {
        paymentId,
        userId: actor.id,
        userEmail: actor.email,
        accountNumber: req.accountNumber,
        action: req.action,
        paymentTimestamp: p.time_stamp,
        amountCents,
      });
      current = votes.filter((v) => v.paymentTimestamp === p.time_stamp);
      voterIds = [
        ...current.filter((v) => v.action === req.action && v.userId !== me.id).map((v) => v.userId),
        me.id,
      ];
    }
    const t = tally(facts, set, await votersNow(tx, voterIds, { lock: true }), now, config().timeZone);
    const struck = new Map(t.struck.map((s) => [s.voter.id, s.why]));
    const mine = struck.get(me.id);
    if (mine) {
      await tx.query("DELETE FROM incoming_wire_votes WHERE payment_id = $1 AND user_id = $2", [
        paymentId,
        me.id,
      ]);
      return { kind: "refused" as const, why: mine };
    }
    const shown = current.map((v) => ({
      userId: v.userId,
      userEmail: v.userEmail,
      action: v.action,
      at: v.at,
      ...(struck.has(v.userId) ? { ineligible: struck.get(v.userId) as string } : {}),
    }));
    if (!t.enough) return { kind: "short" as const, t, shown };
    const approvers = t.counted.map((v) => ({ id: v.id, email: v.email }));
    const decision = await recordDecision(tx, {
      paymentId,
      accountNumber: req.accountNumber,
      action: req.action,
      paymentTimestamp: p.time_stamp,
      amountCents,
      originatorName: p.originator_name,
      approvers,
      decidedBy: me,
    });
    return { kind: "decided" as const, decision, approvers };
  });

  if (judged.kind === "refused") {
    await appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action: "incoming_wire.vote",
      target: paymentId,
      result: "denied",
      detail: { accountNumber: req.accountNumber, action: req.action, why: judged.why },
    });
    throw forbidden(`Your vote cannot count: you ${judged.why}. Nothing was sent.`);
  }
  if (judged.kind === "short") {
    const { t, shown } = judged;
    const struck = t.struck.map((s) => `${s.voter.email} ${s.why}`);
    await appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action: "incoming_wire.vote",
      target: paymentId,
      result: "awaiting_second_approval",
      detail: {
        accountNumber: req.accountNumber,
        action: req.action,
        amountCents,
        policy: t.requirement.why,
        ...(struck.length ? { notCounted: struck } : {}),
      },
    });
    return {
      outcome: "awaiting_second_approval",
      paymentId,
      action: req.action,
      bankStatus: p.payment_status,
      message: `Your vote to ${req.action} is recorded. ${t.requirement.why}: a second approver must agree before it is sent to the bank.${struck.length ? ` Not counted: ${struck.join("; ")}.` : ""}`,
      votes: shown,
    };
  }
  const { decision, approvers } = judged;
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
    if (now && (now.payment_status !== "Pre-Approval" || now.time_stamp !== p.time_stamp)) throw changed(now);
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
