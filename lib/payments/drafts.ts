// Drafts under dual control: an outgoing wire, or a SEN transfer above the release threshold,
// waits in the dashboard database until a second person releases it. The preparer can never
// release (or reject) their own draft; release claims the draft with one conditional UPDATE
// (compare-and-set on status, version and the claim token), so two releases at once, even by one
// approver, see one win and one 409, and every bank call (POST /v2/payment, the backup log,
// transfersen) carries Idempotency-Key = the draft's id, so a retry pays once.
import { randomUUID } from "node:crypto";
import "server-only";
import { conflict, forbidden, notFound, RouteError } from "../api/errors.ts";
import { type Actor, appendAudit, auditActor } from "../auth/audit.ts";
import type { InitiatePaymentInput } from "../bank-api/payments.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, type BankError, type BankResult } from "../bank-client/errors.ts";
import type { Draft } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import type { paymentDrafts } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { getDashboardSettings } from "../settings.ts";
import { sendOutgoingWire, type WireChannel } from "./wire-fallback.ts";

export interface NewDraft {
  id: string;
  kind: "wire" | "sen";
  fromAccount: string;
  amountCents: number;
  counterparty: string;
  request: Record<string, unknown>;
}

type DraftRow = SqlRow<typeof paymentDrafts>;
interface ApprovalRow {
  id: string;
  email: string;
  at: string;
}
/** A draft row with the approvals of its current version (DRAFT_SELECT). */
type ReadRow = DraftRow & { approvals: ApprovalRow[] };

const iso = (d: Date | string) => new Date(d).toISOString();

/** Every draft read names the approvals its current version has, first first. */
const DRAFT_SELECT = `SELECT d.*, coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', a.approver_id, 'email', a.approver_email, 'at', a.approved_at)
                     ORDER BY a.approved_at, a.approver_id)
    FROM draft_approvals a WHERE a.draft_id = d.id AND a.version = d.version), '[]'::jsonb) AS approvals
  FROM payment_drafts d`;

/** Approvals a draft of this amount needs before it is sent: two above the limit, else one. */
export const approvalsRequired = (amountCents: number, dualApprovalCents: number) =>
  amountCents > dualApprovalCents ? 2 : 1;

async function releaseLimit(db: Queryable): Promise<number> {
  return (await getDashboardSettings(db)).releaseDualApprovalCents;
}

function toDraft(r: ReadRow, dualApprovalCents: number): Draft {
  return {
    id: r.id,
    kind: r.kind as Draft["kind"],
    status: r.status as Draft["status"],
    version: r.version,
    fromAccount: r.from_account,
    amountCents: Number(r.amount_cents),
    counterparty: r.counterparty,
    request: r.request,
    preparedBy: { id: r.prepared_by, email: r.prepared_by_email },
    preparedAt: iso(r.prepared_at),
    decidedBy: r.decided_by ? { id: r.decided_by, email: r.decided_by_email ?? "" } : null,
    decidedAt: r.decided_at ? iso(r.decided_at) : null,
    rejectReason: r.reject_reason,
    paymentId: r.payment_id,
    bankAnswer: r.bank_answer,
    channel: (r.channel as Draft["channel"]) ?? null,
    approvals: r.approvals.map((a) => ({ id: a.id, email: a.email, at: iso(a.at) })),
    approvalsRequired: approvalsRequired(Number(r.amount_cents), dualApprovalCents),
  };
}

/** Key order aside (jsonb keeps its own order), the same request. */
const canonical = (o: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b))));
const sameRequest = (a: Record<string, unknown>, b: Record<string, unknown>) => canonical(a) === canonical(b);

export async function getDraft(db: Queryable, id: string): Promise<Draft | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const rows = await db.query<ReadRow>(`${DRAFT_SELECT} WHERE d.id = $1`, [id]);
  return rows[0] ? toDraft(rows[0], await releaseLimit(db)) : null;
}

/** The draft as it stands after a step this request made (it exists: the step just wrote it). */
async function readDraft(db: Queryable, id: string): Promise<Draft> {
  const d = await getDraft(db, id);
  if (!d) throw new Error(`draft ${id} vanished`);
  return d;
}

export async function listDrafts(db: Queryable, o: { open: boolean; limit?: number }): Promise<Draft[]> {
  const rows = await db.query<ReadRow>(
    `${DRAFT_SELECT} ${o.open ? "WHERE d.status IN ('pending', 'releasing', 'queued')" : ""}
     ORDER BY d.prepared_at DESC LIMIT $1`,
    [o.limit ?? 200],
  );
  const limit = await releaseLimit(db);
  return rows.map((r) => toDraft(r, limit));
}

/** $3 to $8 of both the insert and the update: the draft's details and who prepared it. */
const preparation = (actor: Actor, d: Omit<NewDraft, "id" | "kind">) => [
  d.fromAccount,
  d.amountCents,
  d.counterparty,
  JSON.stringify(d.request),
  actor.id,
  actor.email,
];

/**
 * Saves a draft under the form session's key. The same key again (a double submit, a retry)
 * returns the draft already made; the same key with another request is a conflict.
 */
export async function createDraft(db: Queryable, actor: Actor, d: NewDraft): Promise<Draft> {
  const rows = await db.query<DraftRow>(
    `INSERT INTO payment_drafts (id, kind, from_account, amount_cents, counterparty, request,
       prepared_by, prepared_by_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO NOTHING RETURNING *`,
    [d.id, d.kind, ...preparation(actor, d)],
  );
  if (rows[0]) {
    const draft = await readDraft(db, d.id);
    await appendAudit(db, {
      ...auditActor(actor, actor.ip),
      action: `draft.create.${d.kind}`,
      target: d.id,
      result: "ok",
      detail: { fromAccount: d.fromAccount, amountCents: d.amountCents, counterparty: d.counterparty },
    });
    return draft;
  }
  const existing = await getDraft(db, d.id);
  if (!existing) throw new Error(`draft ${d.id} neither inserted nor found`);
  if (
    existing.preparedBy.id !== actor.id ||
    existing.kind !== d.kind ||
    !sameRequest(existing.request, d.request)
  )
    throw conflict("This form was already submitted with other details. Start a new one.");
  return existing;
}

/** Re-prepares a pending draft: the editor becomes its preparer and the version moves on. */
export async function updateDraft(
  db: Queryable,
  actor: Actor,
  id: string,
  version: number,
  d: Omit<NewDraft, "id" | "kind">,
): Promise<Draft> {
  const rows = await db.query<DraftRow>(
    `UPDATE payment_drafts SET version = version + 1, from_account = $3, amount_cents = $4,
       counterparty = $5, request = $6, prepared_by = $7, prepared_by_email = $8, prepared_at = now()
     WHERE id = $1 AND version = $2 AND status = 'pending' RETURNING *`,
    [id, version, ...preparation(actor, d)],
  );
  if (!rows[0]) throw await staleOrMissing(db, id, actor, "change");
  const draft = await readDraft(db, id);
  return auditDraft(db, actor, draft, "update", "ok", {
    version: draft.version,
    amountCents: d.amountCents,
    counterparty: d.counterparty,
  });
}

/** Audits a step of a draft (`draft.<step>.<kind>`) and hands the draft back. */
async function auditDraft(
  db: Queryable,
  actor: Actor,
  draft: Draft,
  step: string,
  result: string,
  detail: Record<string, unknown>,
): Promise<Draft> {
  await appendAudit(db, {
    ...auditActor(actor, actor.ip),
    action: `draft.${step}.${draft.kind}`,
    target: draft.id,
    result,
    detail,
  });
  return draft;
}

async function staleOrMissing(db: Queryable, id: string, actor: Actor, verb: string): Promise<RouteError> {
  const now = await getDraft(db, id);
  if (!now) return notFound("No such draft.");
  if (verb !== "change" && now.preparedBy.id === actor.id)
    return forbidden(`You prepared this draft; another approver must ${verb} it.`);
  if (now.status === "queued")
    return conflict(
      `This wire was released by ${now.decidedBy?.email ?? "someone else"} and is queued for reprocessing at the bank. Nothing was sent.`,
    );
  if (now.status !== "pending" && now.status !== "releasing")
    return conflict(`This draft was already ${now.status} by ${now.decidedBy?.email ?? "someone else"}.`);
  if (now.status === "releasing")
    return conflict(
      now.decidedBy?.id === actor.id
        ? "You are already releasing this draft (in another window). Nothing more was sent."
        : `This draft is being released by ${now.decidedBy?.email ?? "someone else"}. Nothing more was sent.`,
    );
  return conflict("This draft changed after you opened it. Review it again.");
}

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

/** A claim older than this may be taken over by another approver (its releaser went away). */
const STUCK_AFTER_SECONDS = 120;

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
    [id, version, actor.id, actor.email, token, STUCK_AFTER_SECONDS, required],
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

/**
 * Queued wires (sent to the backup log while the wire system was down) become released once the
 * bank's replay has moved the payment on, or failed when the replay canceled it. A bank that
 * cannot be read leaves them queued.
 */
export async function settleQueuedDrafts(db: Queryable, getBank: () => Promise<BankClient>): Promise<void> {
  const rows = await db.query<DraftRow>(
    "SELECT * FROM payment_drafts WHERE status = 'queued' AND payment_id IS NOT NULL ORDER BY prepared_at LIMIT 50",
  );
  if (!rows.length) return;
  const bank = await getBank();
  for (const r of rows) {
    const listed = await bank.call("listPayments", {
      query: { account_number: r.from_account, payment_id: r.payment_id as string },
    });
    if (!listed.ok) return;
    const p = listed.data.find((x) => x.payment_id === r.payment_id);
    if (!p || p.payment_status === "Pre-Approval") continue;
    const status = p.payment_status === "Canceled" ? "failed" : "released";
    const updated = await db.query<{ id: string }>(
      `UPDATE payment_drafts SET status = $2, bank_answer = $3 WHERE id = $1 AND status = 'queued' RETURNING id`,
      [
        r.id,
        status,
        JSON.stringify({
          payment_id: p.payment_id,
          payment_status: p.payment_status,
          payment_timestamp: p.time_stamp,
        }),
      ],
    );
    if (updated[0])
      await appendAudit(db, {
        actorId: r.decided_by ?? "system",
        actorEmail: r.decided_by_email ?? "system",
        action: "draft.reprocessed.wire",
        target: r.id,
        result: status,
        detail: { channel: "backup", paymentId: p.payment_id, bankStatus: p.payment_status },
      });
  }
}

/** Wires prepared in the last 7 days to the same beneficiary account for the same amount. */
export async function recentSameWires(
  db: Queryable,
  beneficiaryAccount: string,
  amountCents: number,
): Promise<Draft[]> {
  const rows = await db.query<ReadRow>(
    `${DRAFT_SELECT}
     WHERE d.kind = 'wire' AND d.amount_cents = $2 AND d.request->>'beneficiary_account_number' = $1
       AND d.status <> 'rejected' AND d.prepared_at > now() - interval '7 days'
     ORDER BY d.prepared_at DESC LIMIT 20`,
    [beneficiaryAccount, amountCents],
  );
  const limit = await releaseLimit(db);
  return rows.map((r) => toDraft(r, limit));
}
