// Deciding a draft: rejecting it, or approving and releasing it. The preparer can never release
// (or reject) their own draft; release claims the draft with one conditional UPDATE
// (compare-and-set on status, version and the claim token), so two releases at once, even by one
// approver, see one win and one 409, and every bank call (POST /v2/payment, the backup log,
// transfersen) carries Idempotency-Key = the draft's id, so a retry pays once.
import { randomUUID } from "node:crypto";
import "server-only";
import { draftFacts, policySetNow, votersNow } from "../approvals/facts.ts";
import { type Tally, tally } from "../approvals/policy.ts";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import type { InitiatePaymentInput } from "../bank-api/payments.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, type BankError, type BankResult } from "../bank-client/errors.ts";
import { config } from "../config.ts";
import { isId } from "../dashboard-api/ids.ts";
import type { Draft } from "../dashboard-api/wires.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { conflict, forbidden, notFound, RouteError } from "../route-kit/errors.ts";
import { auditDraft, staleOrMissing } from "./draft-audit.ts";
import { type DraftRow, readDraft } from "./drafts.ts";
import { sendOutgoingWire, type WireChannel } from "./wire-fallback.ts";

export async function rejectDraft(
  db: Queryable,
  actor: Actor,
  id: string,
  o: { version: number; reason: string },
): Promise<Draft> {
  const rows = await db.query<DraftRow>(
    `UPDATE payment_drafts SET status = 'rejected', decided_by = $3, decided_by_email = $4,
       decided_at = now(), reject_reason = $5
     WHERE id = $1 AND version = $2 AND status = 'pending' AND prepared_by <> $3 RETURNING *`,
    [id, o.version, actor.id, actor.email, o.reason],
  );
  if (!rows[0]) {
    const err = await staleOrMissing(db, id, actor, "reject");
    if (err.status === 403)
      await appendAudit(db, {
        ...auditActor(actor, actor.ip),
        action: "draft.reject",
        target: id,
        result: "denied",
        detail: { reason: "own draft" },
      });
    throw err;
  }
  const draft = await readDraft(db, id);
  return auditDraft(db, actor, draft, "reject", "rejected", {
    reason: o.reason,
    amountCents: draft.amountCents,
    counterparty: draft.counterparty,
  });
}

type Decided =
  | { kind: "claimed"; row: DraftRow; counted: { email: string }[] }
  | { kind: "short"; tally: Tally }
  | { kind: "refused"; why: string }
  | { kind: "none" };

/**
 * Judges the draft's votes at the moment this approval lands and, when they are enough, claims the
 * draft for one release attempt (pending → releasing with a fresh claim token), all in one
 * transaction: the draft row is locked FOR UPDATE and its voters read FOR SHARE, so every counted
 * vote is one whose voter may still cast it (the policy evaluator's rule), and a demotion or a
 * disabling landing at the same time waits for this decision or is seen by it; two approvals at
 * once on two instances see one another. A draft already releasing is claimed again only when no
 * attempt is at work on it (its token was cleared when an attempt ended unfinished) by the
 * approver who claimed it, or by anyone once the claim is stuck.
 */
async function decideAndClaim(
  q: Queryable,
  actor: Actor,
  id: string,
  version: number,
  token: string,
  fresh: boolean,
): Promise<Decided> {
  const locked = await q.query<DraftRow>("SELECT * FROM payment_drafts WHERE id = $1 FOR UPDATE", [id]);
  const row = locked[0];
  if (!row || row.version !== version || row.prepared_by === actor.id) return { kind: "none" };
  if (row.status === "releasing") {
    const again = await q.query<DraftRow>(
      `UPDATE payment_drafts SET decided_by = $2, decided_by_email = $3, decided_at = now(),
         claim_token = $4, claimed_at = now()
       WHERE id = $1 AND status = 'releasing'
         AND ((claim_token IS NULL AND decided_by = $2)
              OR coalesce(claimed_at, decided_at) < now() - make_interval(secs => $5))
       RETURNING *`,
      // A claim older than this may be taken over by another approver (its releaser went away).
      [id, actor.id, actor.email, token, config().draftClaimStuckSeconds],
    );
    const approvals = await q.query<{ approver_email: string }>(
      "SELECT approver_email FROM draft_approvals WHERE draft_id = $1 AND version = $2 ORDER BY approved_at",
      [id, version],
    );
    return again[0]
      ? { kind: "claimed", row: again[0], counted: approvals.map((a) => ({ email: a.approver_email })) }
      : { kind: "none" };
  }
  if (row.status !== "pending") return { kind: "none" };
  const votes = await q.query<{ approver_id: string }>(
    `SELECT approver_id FROM draft_approvals WHERE draft_id = $1 AND version = $2
     ORDER BY approved_at, approver_id`,
    [id, version],
  );
  const voters = await votersNow(
    q,
    votes.map((v) => v.approver_id),
    { lock: true },
  );
  const t = tally(await draftFacts(q, row), await policySetNow(q), voters, Date.now(), config().timeZone);
  const mine = t.struck.find((s) => s.voter.id === actor.id);
  if (mine) {
    // This approver may not vote on it: their vote, just recorded, is taken back.
    if (fresh)
      await q.query("DELETE FROM draft_approvals WHERE draft_id = $1 AND version = $2 AND approver_id = $3", [
        id,
        version,
        actor.id,
      ]);
    return { kind: "refused", why: mine.why };
  }
  if (!t.enough) return { kind: "short", tally: t };
  const claimed = await q.query<DraftRow>(
    `UPDATE payment_drafts SET status = 'releasing', decided_by = $3, decided_by_email = $4,
       decided_at = now(), claim_token = $5, claimed_at = now()
     WHERE id = $1 AND version = $2 AND status = 'pending' RETURNING *`,
    [id, version, actor.id, actor.email, token],
  );
  return claimed[0] ? { kind: "claimed", row: claimed[0], counted: t.counted } : { kind: "none" };
}

/**
 * Records the approver's approval of the draft's version (pending, not theirs): true when it is
 * new, false when they had already given it. One row per approver and version, so a second click,
 * a second window or a retry never counts twice, and a corrected draft starts with none.
 */
async function approveDraft(db: Queryable, actor: Actor, id: string, version: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO draft_approvals (draft_id, version, approver_id, approver_email)
     SELECT id, version, $3, $4 FROM payment_drafts
     WHERE id = $1 AND version = $2 AND status = 'pending' AND prepared_by <> $3
     ON CONFLICT DO NOTHING RETURNING 1`,
    [id, version, actor.id, actor.email],
  );
  return rows.length > 0;
}

export interface ReleaseOutcome {
  draft: Draft;
  /** Said when the release recorded an approval and sent nothing. */
  message?: string;
}

/**
 * Approves a draft (a wire, or a SEN transfer the approval policy sends to a draft) and, once the
 * votes of voters who may still cast them meet what the policy requires, sends it. Short of that,
 * the approval is recorded and nothing is sent; a vote whose voter was since demoted, disabled,
 * reset or locked no longer counts. The preparer never approves.
 */
export async function releaseDraft(
  db: DashboardDb,
  bank: BankClient,
  actor: Actor,
  id: string,
  o: { version: number },
): Promise<ReleaseOutcome> {
  // Before any query: the table's id is a uuid, and the database refuses anything else.
  if (!isId(id)) throw notFound("No such draft.");
  const fresh = await approveDraft(db, actor, id, o.version);
  const token = randomUUID();
  const decided = await db.tx((q) => decideAndClaim(q, actor, id, o.version, token, fresh));
  if (decided.kind === "refused") {
    const err = forbidden(`Your approval cannot count: you ${decided.why}. Nothing was sent.`);
    await appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action: "draft.release",
      target: id,
      result: "denied",
      detail: { message: err.message },
    });
    throw err;
  }
  if (decided.kind === "short") {
    const seen = await readDraft(db, id);
    const t = decided.tally;
    const required = t.requirement.approvers;
    const counted = t.counted.map((v) => v.email);
    const struck = t.struck.map((s) => `${s.voter.email} ${s.why}`);
    const struckWords = struck.length ? ` Not counted: ${struck.join("; ")}.` : "";
    if (fresh) {
      await auditDraft(db, actor, seen, "approve", "awaiting_second_approval", {
        version: seen.version,
        approvals: counted,
        ...(struck.length ? { notCounted: struck } : {}),
        required,
        policy: t.requirement.why,
        amountCents: seen.amountCents,
        counterparty: seen.counterparty,
      });
      const left = required - counted.length;
      const next =
        left === 1
          ? `${counted.length === 1 ? "a second approver" : "one more approver"}, neither you nor the preparer, must approve; their approval sends it to the bank`
          : `${left} more approvers, neither you nor the preparer, must approve; the last of them sends it to the bank`;
      return {
        draft: seen,
        message: `Your approval is recorded (${counted.length} of ${required}). ${t.requirement.why}: ${next}.${struckWords} Nothing was sent.`,
      };
    }
    const err = conflict(
      `You already approved this draft. It needs ${required} approvals from different approvers; the next approval must come from someone else.${struckWords} Nothing was sent.`,
    );
    await appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action: "draft.release",
      target: id,
      result: "stale",
      detail: { message: err.message },
    });
    throw err;
  }
  if (decided.kind === "none") {
    const err = await staleOrMissing(db, id, actor, "release");
    await appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action: "draft.release",
      target: id,
      result: err.status === 403 ? "denied" : "stale",
      detail: { message: err.message },
    });
    throw err;
  }
  const draft = await releaseClaimed(db, bank, actor, id, decided.row, token, decided.counted);
  return { draft };
}

/**
 * Claims the draft (claimDraft), sends it with Idempotency-Key = the draft id on every path (a
 * draft's content is fixed from its claim on, so the id names the one version that can be sent),
 * and records the bank's answer. A wire goes through `sendOutgoingWire`: on a 503 from the wire
 * system it goes to the backup log under the same key, and the draft is queued until the bank's
 * replay gives it the payment. Every write after the claim names the claim token, so an attempt
 * whose claim was taken over records nothing; the bank's key makes any resend one payment.
 */
async function releaseClaimed(
  db: Queryable,
  bank: BankClient,
  actor: Actor,
  id: string,
  row: DraftRow,
  token: string,
  approvers: { email: string }[],
): Promise<Draft> {
  const draft = {
    kind: row.kind as Draft["kind"],
    amountCents: row.amount_cents,
    counterparty: row.counterparty,
  };
  let channel: WireChannel = "primary";
  let primaryError: BankError | undefined;
  let result: BankResult<unknown>;
  if (draft.kind === "wire") {
    const sent = await sendOutgoingWire(bank, row.request as InitiatePaymentInput, id, {
      beforeSend: async (c) => {
        const rows = await db.query<{ id: string }>(
          `UPDATE payment_drafts SET channel = $2
           WHERE id = $1 AND status = 'releasing' AND claim_token = $3 RETURNING id`,
          [id, c, token],
        );
        if (!rows[0])
          throw conflict("This draft changed while it was being released. Nothing more was sent.");
      },
    });
    ({ channel, result, primaryError } = sent);
  } else {
    result = await bank.call("transferSen", { body: row.request as never, idempotencyKey: id });
  }
  const audited = {
    channel,
    ...(primaryError ? { primaryError: primaryError.message } : {}),
    approvals: approvers.map((a) => a.email),
  };

  if (result.ok) {
    const answer = result.data as Record<string, unknown>;
    const paymentId = typeof answer.payment_id === "string" && answer.payment_id ? answer.payment_id : null;
    // A Pre-Approval payment is in the bank's backup log (this attempt's, or an earlier one's that
    // the key answered with): queued until the replay moves it on.
    const queued = answer.payment_status === "Pre-Approval";
    const status = queued ? "queued" : "released";
    const rows = await db.query<DraftRow>(
      `UPDATE payment_drafts SET status = $4, payment_id = $2, bank_answer = $3, channel = $6, claim_token = NULL
       WHERE id = $1 AND status = 'releasing' AND claim_token = $5 RETURNING *`,
      [
        id,
        paymentId,
        JSON.stringify(answer),
        status,
        token,
        queued ? "backup" : draft.kind === "wire" ? channel : null,
      ],
    );
    await appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action: `draft.release.${draft.kind}`,
      target: id,
      result: rows[0] ? status : "taken over",
      detail: {
        ...audited,
        bankAnswer: answer,
        amountCents: draft.amountCents,
        counterparty: draft.counterparty,
      },
    });
    if (!rows[0]) throw await staleOrMissing(db, id, actor, "release");
    return readDraft(db, id);
  }

  const error: BankError = result.error;
  const refused = error.kind === "unavailable" && error.status === 503;
  if (error.kind === "rejected") {
    // The bank refused it (funds, account): the draft ends here and must be prepared again.
    await db.query(
      `UPDATE payment_drafts SET status = 'failed', bank_answer = $2, claim_token = NULL
       WHERE id = $1 AND status = 'releasing' AND claim_token = $3`,
      [id, JSON.stringify({ error: error.message, fields: error.fields ?? [] }), token],
    );
  } else {
    // The attempt ends unfinished: its approver may release again (the key makes it one payment).
    // A 503 from the backup log too means nothing was taken anywhere.
    await db.query(
      `UPDATE payment_drafts SET claim_token = NULL, channel = CASE WHEN $3 THEN NULL ELSE channel END
       WHERE id = $1 AND status = 'releasing' AND claim_token = $2`,
      [id, token, refused && channel === "backup"],
    );
  }
  await appendAudit(db, {
    ...auditActor(actor, actor.ip),
    action: `draft.release.${draft.kind}`,
    target: id,
    result: error.kind === "rejected" ? "rejected by bank" : "bank unavailable",
    detail: { ...audited, bankAnswer: { error: error.message, fields: error.fields ?? [] } },
  });
  if (error.kind === "rejected") throw new BankCallError(error);
  throw new RouteError(
    503,
    "bank_unavailable",
    `${error.message} The draft stays claimed by you: release it again to finish; it cannot be paid twice.`,
  );
}
