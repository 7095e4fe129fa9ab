// Drafts under dual control: an outgoing wire, or a SEN transfer above the release threshold,
// waits in the dashboard database until a second person releases it. This module stores and reads
// them; releasing and rejecting are in draft-decisions.ts, the audit of each step and the words
// of a refused step in draft-audit.ts, the settlement of queued wires in draft-settlement.ts.
import "server-only";
import { OPEN_DRAFT_STATUSES, sqlStates } from "../approvals/draft-rules.ts";
import { draftFacts, policySetNow, votersNow } from "../approvals/facts.ts";
import { type Requirement, tally } from "../approvals/policy.ts";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import { config } from "../config.ts";
import { isId } from "../dashboard-api/ids.ts";
import type { Draft } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import type { paymentDrafts } from "../db/schema.ts";
import { conflict } from "../route-kit/errors.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { auditDraft, staleOrMissing } from "./draft-audit.ts";

export interface NewDraft {
  id: string;
  kind: "wire" | "sen";
  fromAccount: string;
  amountCents: number;
  counterparty: string;
  request: Record<string, unknown>;
}

export type DraftRow = SqlRow<typeof paymentDrafts>;
interface ApprovalRow {
  id: string;
  email: string;
  at: string;
}
/** A draft row with the approvals of its current version (DRAFT_SELECT). */
export type ReadRow = DraftRow & { approvals: ApprovalRow[] };

const iso = (d: Date | string) => new Date(d).toISOString();

/** Every draft read names the approvals its current version has, first first. */
export const DRAFT_SELECT = `SELECT d.*, coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', a.approver_id, 'email', a.approver_email, 'at', a.approved_at)
                     ORDER BY a.approved_at, a.approver_id)
    FROM draft_approvals a WHERE a.draft_id = d.id AND a.version = d.version), '[]'::jsonb) AS approvals
  FROM payment_drafts d`;

/**
 * Drafts as people see them: each vote with why it no longer counts (its voter's standing now),
 * and the approvals the approval policy requires, with which policy and why.
 */
export async function toDrafts(q: Queryable, rows: ReadRow[]): Promise<Draft[]> {
  if (!rows.length) return [];
  const set = await policySetNow(q);
  const voterIds = [...new Set(rows.flatMap((r) => r.approvals.map((a) => a.id)))];
  const voters = new Map((await votersNow(q, voterIds, { lock: false })).map((v) => [v.id, v]));
  const now = Date.now();
  const out: Draft[] = [];
  for (const r of rows) {
    const facts = await draftFacts(q, r);
    const t = tally(
      facts,
      set,
      r.approvals.flatMap((a) => voters.get(a.id) ?? []),
      now,
      config().timeZone,
    );
    const struck = new Map(t.struck.map((s) => [s.voter.id, s.why]));
    out.push(toDraft(r, t.requirement, struck));
  }
  return out;
}

function toDraft(r: ReadRow, req: Requirement, struck: Map<string, string>): Draft {
  return {
    id: r.id,
    kind: r.kind as Draft["kind"],
    status: r.status as Draft["status"],
    version: r.version,
    fromAccount: r.from_account,
    amountCents: r.amount_cents,
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
    approvals: r.approvals.map((a) => {
      const why = struck.get(a.id);
      return { id: a.id, email: a.email, at: iso(a.at), ...(why ? { ineligible: why } : {}) };
    }),
    approvalsRequired: req.approvers,
    approvalPolicy: req.why,
  };
}

/** Key order aside (jsonb keeps its own order), the same request. */
const canonical = (o: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b))));
const sameRequest = (a: Record<string, unknown>, b: Record<string, unknown>) => canonical(a) === canonical(b);

export async function getDraft(db: Queryable, id: string): Promise<Draft | null> {
  if (!isId(id)) return null;
  const rows = await db.query<ReadRow>(`${DRAFT_SELECT} WHERE d.id = $1`, [id]);
  return rows[0] ? ((await toDrafts(db, rows))[0] ?? null) : null;
}

/** The draft as it stands after a step this request made (it exists: the step just wrote it). */
export async function readDraft(db: Queryable, id: string): Promise<Draft> {
  const d = await getDraft(db, id);
  if (!d) throw new Error(`draft ${id} vanished`);
  return d;
}

export async function listDrafts(db: Queryable, o: { open: boolean; limit?: number }): Promise<Draft[]> {
  const rows = await db.query<ReadRow>(
    `${DRAFT_SELECT} ${o.open ? `WHERE d.status IN (${sqlStates(OPEN_DRAFT_STATUSES)})` : ""}
     ORDER BY d.prepared_at DESC LIMIT $1`,
    [o.limit ?? 200],
  );
  return toDrafts(db, rows);
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
