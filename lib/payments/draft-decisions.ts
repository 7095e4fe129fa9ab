// Deciding a draft: rejecting it, or approving and releasing it. The preparer can never release
// (or reject) their own draft; release claims the draft with one conditional UPDATE
// (compare-and-set on status, version and the claim token), so two releases at once, even by one
// approver, see one win and one 409, and every bank call (POST /v2/payment, the backup log,
// transfersen) carries Idempotency-Key = the draft's id, so a retry pays once.
import { randomUUID } from "node:crypto";
import "server-only";
import { conflict, RouteError } from "../api/errors.ts";
import { type Actor, appendAudit, auditActor } from "../auth/audit.ts";
import type { InitiatePaymentInput } from "../bank-api/payments.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, type BankError, type BankResult } from "../bank-client/errors.ts";
import { config } from "../config.ts";
import type { Draft } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import { auditDraft, staleOrMissing } from "./draft-audit.ts";
import { approvalsRequired, type DraftRow, getDraft, readDraft, releaseLimit } from "./drafts.ts";
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

/**
 * Claims a draft version for one release attempt: pending → releasing with a fresh claim token,
 * in one conditional UPDATE that only one request can win. A pending draft is claimed only once
 * its version has the approvals it needs (`required`, from approvers other than its preparer). A
 * draft already releasing is claimed again only when no attempt is at work on it (its token was
 * cleared when an attempt ended unfinished) by the approver who claimed it, or by anyone once the
 * claim is stuck: the same approver in two windows, or two dashboard instances, never send at once.
 */
async function claimDraft(
  db: Queryable,
  actor: Actor,
  id: string,
  version: number,
  token: string,
  required: number,
) {
  return db.query<DraftRow>(
    `UPDATE payment_drafts d SET status = 'releasing', decided_by = $3, decided_by_email = $4,
       decided_at = now(), claim_token = $5, claimed_at = now()
     WHERE id = $1 AND version = $2 AND prepared_by <> $3
       AND ((status = 'pending'
             AND (SELECT count(*) FROM draft_approvals a
                  WHERE a.draft_id = d.id AND a.version = d.version AND a.approver_id <> d.prepared_by) >= $7)
            OR (status = 'releasing'
                AND ((claim_token IS NULL AND decided_by = $3)
                     OR coalesce(claimed_at, decided_at) < now() - make_interval(secs => $6))))
     RETURNING *`,
    // A claim older than this may be taken over by another approver (its releaser went away).
    [id, version, actor.id, actor.email, token, config().draftClaimStuckSeconds, required],
  );
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
 * Approves a draft (a wire, or a SEN transfer above the release threshold) and, once it has the
 * approvals it needs, sends it. Above the release
 * dual-approval limit (a dashboard setting) the first approver's release records their vote and
 * sends nothing; a second, different approver's release sends it. The preparer never approves.
 */
export async function releaseDraft(
  db: Queryable,
  bank: BankClient,
  actor: Actor,
  id: string,
  o: { version: number },
): Promise<ReleaseOutcome> {
  const limit = await releaseLimit(db);
  const fresh = await approveDraft(db, actor, id, o.version);
  const seen = await getDraft(db, id);
  const required = seen ? approvalsRequired(seen.amountCents, limit) : 1;
  const approvers =
    seen?.version === o.version ? seen.approvals.filter((a) => a.id !== seen.preparedBy.id) : [];
  if (seen?.status === "pending" && seen.version === o.version && approvers.length < required) {
    // Not enough approvals yet: the vote is recorded (or was already), nothing is sent.
    const mine = approvers.some((a) => a.id === actor.id);
    if (mine && fresh) {
      await auditDraft(db, actor, seen, "approve", "awaiting_second_approval", {
        version: seen.version,
        approvals: approvers.map((a) => a.email),
        required,
        limitCents: limit,
        amountCents: seen.amountCents,
        counterparty: seen.counterparty,
      });
      return {
        draft: seen,
        message: `Your approval is recorded (${approvers.length} of ${required}). Above ${usd(limit)} a second approver, neither you nor the preparer, must approve; their approval sends it to the bank. Nothing was sent.`,
      };
    }
    if (mine) {
      const err = conflict(
        `You already approved this draft. It needs ${required} approvals from different approvers; the next approval must come from someone else. Nothing was sent.`,
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
  }
  const draft = await releaseClaimed(db, bank, actor, id, o, required, approvers);
  return { draft };
}

const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

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
  o: { version: number },
  required: number,
  approvers: { email: string }[],
): Promise<Draft> {
  const token = randomUUID();
  const claimed = await claimDraft(db, actor, id, o.version, token, required);
  if (!claimed[0]) {
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
  const row = claimed[0];
  const draft = {
    kind: row.kind as Draft["kind"],
    amountCents: Number(row.amount_cents),
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
