// Sweeps: a band kept on one of the customer's accounts by SEN transfers from and to another of
// its accounts. Created by a preparer and approved once per version by approvers, the way a series
// is (lib/schedules/series.ts): the approval policy decides how many, and never fewer than one
// besides the preparer (a sweep moves money with no person at each move). A wider band or other
// accounts start a new version, whose approvals start again; a narrower band does not.
import "server-only";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import { isId } from "../dashboard-api/ids.ts";
import type { Queryable } from "../db/client.ts";
import type { sweepMoves, sweeps } from "../db/schema.ts";
import { conflict, forbidden, invalid, notFound } from "../route-kit/errors.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { seriesTally } from "./approval.ts";
import {
  LIVE_SWEEP_STATUSES,
  type SweepDirection,
  type SweepMoveStatus,
  type SweepStatus,
} from "./states.ts";

export type SweepRow = SqlRow<typeof sweeps>;
export type SweepMoveRow = SqlRow<typeof sweepMoves>;

export interface SweepTerms {
  name: string;
  /** The account whose available balance is kept in the band. */
  account: string;
  /** The account that funds it below the band and takes the excess above it. */
  fundingAccount: string;
  lowCents: number;
  highCents: number;
  /** HH:MM on the bank's clock, each business day. */
  runAt: string;
}

export interface SweepMoveView {
  day: string;
  slot: string;
  key: string;
  status: SweepMoveStatus;
  direction: SweepDirection | null;
  amountCents: number;
  availableCents: number | null;
  reason: string | null;
  at: string;
}

export interface SweepView extends SweepTerms {
  id: string;
  status: SweepStatus;
  version: number;
  preparedBy: { id: string; email: string };
  approvals: { id: string; email: string; at: string }[];
  approvalsRequired: number;
  approved: boolean;
  lastMoves: SweepMoveView[];
}

/** The payment the policy judges a sweep as: a SEN transfer from its funding account, as large as its band's top. */
export const sweepPayment = (s: Pick<SweepRow, "funding_account" | "high_cents" | "prepared_by">) => ({
  kind: "sen" as const,
  amountCents: Math.max(1, s.high_cents),
  fromAccount: s.funding_account,
  preparedBy: s.prepared_by,
});

/**
 * The sweep's approvals as the run counts them: each approver as they stand now (disabled, no
 * longer an approver, outside the policy's group, credentials just changed: not counted) against
 * what the policy asks of its payment, at least one. The page, the route and the run read this one answer.
 */
export async function sweepApproval(
  db: Queryable,
  s: Pick<SweepRow, "funding_account" | "high_cents" | "prepared_by">,
  approverIds: readonly string[],
): Promise<{ required: number; counted: number; approved: boolean }> {
  const t = await seriesTally(db, sweepPayment(s), approverIds);
  const required = Math.max(1, t.requirement.approvers);
  return { required, counted: t.counted.length, approved: t.counted.length >= required };
}

/** Whether the new terms widen what the old allowed: a lower floor, a higher top, or other accounts. */
export const widens = (before: SweepTerms, after: SweepTerms) =>
  after.lowCents < before.lowCents ||
  after.highCents > before.highCents ||
  after.account !== before.account ||
  after.fundingAccount !== before.fundingAccount;

const SELECT = `SELECT s.*, coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', a.approver_id, 'email', a.approver_email, 'at', a.approved_at)
                     ORDER BY a.approved_at, a.approver_id)
    FROM sweep_approvals a WHERE a.sweep_id = s.id AND a.version = s.version AND a.approver_id <> s.prepared_by),
  '[]'::jsonb) AS approvals FROM sweeps s`;
type ReadRow = SweepRow & { approvals: { id: string; email: string; at: string }[] };

export const toMoveView = (m: SweepMoveRow): SweepMoveView => ({
  day: m.day,
  slot: m.slot,
  key: m.key,
  status: m.status,
  direction: m.direction,
  amountCents: m.amount_cents,
  availableCents: m.available_cents,
  reason: m.reason,
  at: new Date(m.updated_at).toISOString(),
});

async function toView(db: Queryable, r: ReadRow): Promise<SweepView> {
  const { required, approved } = await sweepApproval(
    db,
    r,
    r.approvals.map((a) => a.id),
  );
  const moves = await db.query<SweepMoveRow>(
    `SELECT * FROM sweep_moves WHERE sweep_id = $1 ORDER BY created_at DESC, slot DESC LIMIT 10`,
    [r.id],
  );
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    version: r.version,
    account: r.account,
    fundingAccount: r.funding_account,
    lowCents: r.low_cents,
    highCents: r.high_cents,
    runAt: r.run_at,
    preparedBy: { id: r.prepared_by, email: r.prepared_by_email },
    approvals: r.approvals.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
    approvalsRequired: required,
    approved,
    lastMoves: moves.map(toMoveView),
  };
}

export async function getSweep(db: Queryable, id: string): Promise<SweepView | null> {
  if (!isId(id)) return null;
  const rows = await db.query<ReadRow>(`${SELECT} WHERE s.id = $1`, [id]);
  return rows[0] ? toView(db, rows[0]) : null;
}

async function mustGet(db: Queryable, id: string): Promise<SweepView> {
  const s = await getSweep(db, id);
  if (!s || s.status === "deleted") throw notFound("No such sweep.");
  return s;
}

export async function listSweeps(db: Queryable): Promise<SweepView[]> {
  const rows = await db.query<ReadRow>(
    `${SELECT} WHERE s.status <> 'deleted' ORDER BY s.created_at DESC LIMIT 200`,
  );
  return Promise.all(rows.map((r) => toView(db, r)));
}

const audit = (db: Queryable, actor: Actor, action: string, target: string, result: string, detail = {}) =>
  appendAudit(db, { ...auditActor(actor, actor.ip), action: `sweep.${action}`, target, result, detail });

function checkTerms(t: SweepTerms): void {
  if (t.account === t.fundingAccount)
    throw invalid([{ field: "fundingAccount", message: "must be another account than the one kept" }]);
  if (t.highCents < t.lowCents)
    throw invalid([{ field: "highCents", message: "must be at least the band's low" }]);
}

/**
 * Creates a sweep under the form session's key (its id): the same key again returns it, the same
 * key with other terms is a conflict. `ownAccounts` are the customer's accounts at the bank.
 */
export async function createSweep(
  db: Queryable,
  actor: Actor,
  id: string,
  t: SweepTerms,
  ownAccounts: ReadonlySet<string>,
): Promise<SweepView> {
  checkTerms(t);
  for (const [field, n] of [
    ["account", t.account],
    ["fundingAccount", t.fundingAccount],
  ] as const)
    if (!ownAccounts.has(n)) throw invalid([{ field, message: "must be one of your accounts" }]);
  const rows = await db.query(
    `INSERT INTO sweeps (id, name, account, funding_account, low_cents, high_cents, run_at, prepared_by, prepared_by_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [id, t.name, t.account, t.fundingAccount, t.lowCents, t.highCents, t.runAt, actor.id, actor.email],
  );
  const view = await mustGet(db, id);
  if (!rows[0]) {
    if (view.preparedBy.id !== actor.id || view.lowCents !== t.lowCents || view.highCents !== t.highCents)
      throw conflict("This form was already submitted with other details. Start a new one.");
    return view;
  }
  await audit(db, actor, "create", id, "ok", { ...t, approvalsRequired: view.approvalsRequired });
  return view;
}

/** Approves the sweep's current version. The preparer never approves; a changed sweep is a 409. */
export async function approveSweep(
  db: Queryable,
  actor: Actor,
  id: string,
  version: number,
): Promise<SweepView> {
  const before = await mustGet(db, id);
  if (before.preparedBy.id === actor.id) {
    await audit(db, actor, "approve", id, "denied", { reason: "own sweep" });
    throw forbidden("You set up this sweep: another approver must approve it.");
  }
  const rows = await db.query(
    `INSERT INTO sweep_approvals (sweep_id, version, approver_id, approver_email)
     SELECT id, version, $3, $4 FROM sweeps
     WHERE id = $1 AND version = $2 AND status <> 'deleted' AND prepared_by <> $3
     ON CONFLICT DO NOTHING RETURNING 1`,
    [id, version, actor.id, actor.email],
  );
  const after = await mustGet(db, id);
  if (!rows[0]) {
    if (after.version !== version) throw conflict("This sweep changed since you opened it. Review it again.");
    throw conflict("You already approved this version of the sweep.");
  }
  await audit(db, actor, "approve", id, after.approved ? "approved" : "awaiting_second_approval", {
    version,
    lowCents: after.lowCents,
    highCents: after.highCents,
    approvals: after.approvals.map((a) => a.email),
    required: after.approvalsRequired,
  });
  return after;
}

/** Pauses (no move while paused), resumes, or deletes (its moves stay in history and the audit). */
export async function setSweepStatus(
  db: Queryable,
  actor: Actor,
  id: string,
  action: "pause" | "resume" | "delete",
): Promise<SweepView | null> {
  const before = await mustGet(db, id);
  const from: readonly SweepStatus[] = (
    { pause: ["active"], resume: ["paused"], delete: LIVE_SWEEP_STATUSES } as const
  )[action];
  const to: SweepStatus = ({ pause: "paused", resume: "active", delete: "deleted" } as const)[action];
  const rows = await db.query(
    `UPDATE sweeps SET status = $3, updated_at = now() WHERE id = $1 AND status = ANY($2::text[]) RETURNING id`,
    [id, from, to],
  );
  if (!rows[0]) {
    await audit(db, actor, action, id, "stale", { status: before.status });
    throw conflict(
      `This sweep is ${before.status}: it cannot be ${action === "delete" ? "deleted" : `${action}d`}.`,
    );
  }
  await audit(db, actor, action, id, "ok", { name: before.name, from: before.status });
  return action === "delete" ? null : mustGet(db, id);
}

/** Changes a sweep as seen at `version`; wider terms raise the version (approvals start again). The editor becomes its preparer. */
export async function editSweep(
  db: Queryable,
  actor: Actor,
  id: string,
  version: number,
  t: SweepTerms,
  ownAccounts: ReadonlySet<string>,
): Promise<SweepView> {
  checkTerms(t);
  for (const [field, n] of [
    ["account", t.account],
    ["fundingAccount", t.fundingAccount],
  ] as const)
    if (!ownAccounts.has(n)) throw invalid([{ field, message: "must be one of your accounts" }]);
  const before = await mustGet(db, id);
  const wider = widens(before, t);
  const rows = await db.query(
    `UPDATE sweeps SET name = $3, account = $4, funding_account = $5, low_cents = $6, high_cents = $7, run_at = $8,
       version = version + $9, prepared_by = $10, prepared_by_email = $11, updated_at = now()
     WHERE id = $1 AND version = $2 AND status <> 'deleted' RETURNING id`,
    [
      id,
      version,
      t.name,
      t.account,
      t.fundingAccount,
      t.lowCents,
      t.highCents,
      t.runAt,
      wider ? 1 : 0,
      actor.id,
      actor.email,
    ],
  );
  if (!rows[0]) {
    await audit(db, actor, "edit", id, "stale", { version });
    throw conflict("This sweep changed since you opened it. Review it again.");
  }
  const after = await mustGet(db, id);
  await audit(db, actor, "edit", id, "ok", {
    version: after.version,
    needsApprovalAgain: wider,
    before: {
      lowCents: before.lowCents,
      highCents: before.highCents,
      account: before.account,
      fundingAccount: before.fundingAccount,
    },
    after: t,
  });
  return after;
}
