// Payment series: created by a preparer, approved once per version by approvers (as the same
// payment made by hand would need), paused, resumed, cancelled, edited, and an occurrence skipped.
// Every step is audited; a change of amount, payee or account starts a new version, whose
// approvals start again.
import { createHash } from "node:crypto";
import "server-only";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import { addDays } from "../bank-api/dates.ts";
import {
  describeSchedule,
  fromRule,
  nextOccurrence,
  occurrencesBetween,
  type Schedule,
  toRule,
} from "../calendar/recurrence.ts";
import { isId } from "../dashboard-api/ids.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import type { paymentSeries, seriesOccurrences } from "../db/schema.ts";
import { conflict, forbidden, invalid, notFound } from "../route-kit/errors.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { approvalsNeeded } from "./approval.ts";
import {
  isLiveSeries,
  LIVE_SERIES_STATUSES,
  type OccurrenceStatus,
  type SeriesKind,
  type SeriesStatus,
  sqlWords,
} from "./states.ts";

export type SeriesRow = SqlRow<typeof paymentSeries>;
export type { SeriesKind };

/**
 * The occurrence's Idempotency-Key at the bank: a name-based UUID (version 5, RFC 9562) of the
 * series id and the day its rule names, so every instance and every retry derives the same key.
 */
export function occurrenceKey(seriesId: string, nominalDay: string): string {
  const ns = Buffer.from(seriesId.replaceAll("-", ""), "hex");
  const h = createHash("sha1").update(ns).update(nominalDay).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export interface NewSeries {
  id: string;
  kind: SeriesKind;
  name: string;
  fromAccount: string;
  amountCents: number;
  counterparty: string;
  /** The saved payee a wire was filled from, if any. */
  beneficiaryId?: string | null;
  request: Record<string, unknown>;
  schedule: Schedule;
}

export interface SeriesView {
  id: string;
  kind: SeriesKind;
  name: string;
  status: SeriesStatus;
  version: number;
  fromAccount: string;
  amountCents: number;
  counterparty: string;
  beneficiaryId: string | null;
  request: Record<string, unknown>;
  schedule: Schedule;
  words: string;
  nextDay: string | null;
  preparedBy: { id: string; email: string };
  approvals: { id: string; email: string; at: string }[];
  approvalsRequired: number;
  /** True when the series' current version has the approvals its occurrences need. */
  approved: boolean;
}

const SERIES_SELECT = `SELECT s.*, coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', a.approver_id, 'email', a.approver_email, 'at', a.approved_at)
                     ORDER BY a.approved_at, a.approver_id)
    FROM series_approvals a WHERE a.series_id = s.id AND a.version = s.version AND a.approver_id <> s.prepared_by),
  '[]'::jsonb) AS approvals,
  ARRAY(SELECT o.nominal_day FROM series_occurrences o
        WHERE o.series_id = s.id AND o.day >= s.next_day AND o.status <> 'due') AS decided_days
  FROM payment_series s`;
type ReadRow = SeriesRow & { approvals: { id: string; email: string; at: string }[]; decided_days: string[] };

/**
 * The next day a series pays, as shown: its `next_day`, past any occurrence already paid, failed or
 * skipped. An edit or a resume starts again from the bank's today, whose occurrence may have been
 * paid already; the run moves `next_day` past it at its next pass, and pays it no second time.
 */
function nextToPay(r: ReadRow): string | null {
  const decided = new Set(r.decided_days);
  let from = r.next_day;
  for (let i = 0; from && i <= decided.size; i++) {
    const o = nextOccurrence(r.rule, r.roll, from);
    if (!o || !decided.has(o.nominal)) return o?.day ?? null;
    from = addDays(o.day, 1);
  }
  return null;
}

async function toView(db: Queryable, r: ReadRow): Promise<SeriesView> {
  const schedule = fromRule(r.rule, r.roll);
  const required = await approvalsNeeded(db, {
    kind: r.kind,
    amountCents: r.amount_cents,
    fromAccount: r.from_account,
    preparedBy: r.prepared_by,
    beneficiaryId: r.beneficiary_id,
  });
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    status: r.status,
    version: r.version,
    fromAccount: r.from_account,
    amountCents: r.amount_cents,
    counterparty: r.counterparty,
    beneficiaryId: r.beneficiary_id,
    request: r.request,
    schedule,
    words: describeSchedule(schedule),
    nextDay: nextToPay(r),
    preparedBy: { id: r.prepared_by, email: r.prepared_by_email },
    approvals: r.approvals.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
    approvalsRequired: required,
    approved: r.approvals.length >= required,
  };
}

export async function getSeries(db: Queryable, id: string): Promise<SeriesView | null> {
  if (!isId(id)) return null;
  const rows = await db.query<ReadRow>(`${SERIES_SELECT} WHERE s.id = $1`, [id]);
  return rows[0] ? toView(db, rows[0]) : null;
}

async function mustGet(db: Queryable, id: string): Promise<SeriesView> {
  const s = await getSeries(db, id);
  if (!s) throw notFound("No such scheduled payment.");
  return s;
}

export async function listSeries(db: Queryable, o: { limit?: number } = {}): Promise<SeriesView[]> {
  const rows = await db.query<ReadRow>(
    `${SERIES_SELECT} WHERE s.status <> 'cancelled' ORDER BY s.created_at DESC LIMIT $1`,
    [o.limit ?? 500],
  );
  return Promise.all(rows.map((r) => toView(db, r)));
}

const audit = (db: Queryable, actor: Actor, action: string, target: string, result: string, detail = {}) =>
  appendAudit(db, { ...auditActor(actor, actor.ip), action: `schedule.${action}`, target, result, detail });

/** The first occurrence day on or after `today` (the bank's business date), or null when none is left. */
const firstDayFrom = (s: Schedule, today: string) => nextOccurrence(toRule(s), s.roll, today)?.day ?? null;

/**
 * Creates a series under the form session's key (its id): the same key again returns it, the same
 * key with other details is a conflict. Occurrences start at `today` (the bank's business date).
 */
export async function createSeries(
  db: DashboardDb,
  actor: Actor,
  s: NewSeries,
  today: string,
): Promise<SeriesView> {
  const rule = toRule(s.schedule);
  const nextDay = firstDayFrom(s.schedule, today);
  if (!nextDay) throw conflict("This schedule has no business day on or after today: nothing would be paid.");
  const rows = await db.query<{ id: string }>(
    `INSERT INTO payment_series (id, kind, name, from_account, amount_cents, counterparty, request, rule, roll,
       next_day, prepared_by, prepared_by_email, beneficiary_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      s.id,
      s.kind,
      s.name,
      s.fromAccount,
      s.amountCents,
      s.counterparty,
      JSON.stringify(s.request),
      rule,
      s.schedule.roll,
      nextDay,
      actor.id,
      actor.email,
      s.beneficiaryId ?? null,
    ],
  );
  const view = await mustGet(db, s.id);
  if (!rows[0]) {
    if (
      view.preparedBy.id !== actor.id ||
      view.amountCents !== s.amountCents ||
      view.fromAccount !== s.fromAccount
    )
      throw conflict("This form was already submitted with other details. Start a new one.");
    return view;
  }
  await audit(db, actor, `create.${s.kind}`, s.id, "ok", {
    name: s.name,
    fromAccount: s.fromAccount,
    amountCents: s.amountCents,
    counterparty: s.counterparty,
    rule,
    words: view.words,
    approvalsRequired: view.approvalsRequired,
  });
  return view;
}

/**
 * Approves the series' current version for every occurrence up to its amount. The preparer never
 * approves; the version seen must be the version in force (a changed series is a 409).
 */
export async function approveSeries(
  db: Queryable,
  actor: Actor,
  id: string,
  version: number,
): Promise<SeriesView> {
  const before = await mustGet(db, id);
  if (before.preparedBy.id === actor.id) {
    await audit(db, actor, "approve", id, "denied", { reason: "own series" });
    throw forbidden("You prepared this scheduled payment: another approver must approve it.");
  }
  const rows = await db.query(
    `INSERT INTO series_approvals (series_id, version, approver_id, approver_email)
     SELECT id, version, $3, $4 FROM payment_series
     WHERE id = $1 AND version = $2 AND status IN (${sqlWords(LIVE_SERIES_STATUSES)}) AND prepared_by <> $3
     ON CONFLICT DO NOTHING RETURNING 1`,
    [id, version, actor.id, actor.email],
  );
  const after = await mustGet(db, id);
  if (!rows[0]) {
    if (after.version !== version || !isLiveSeries(after.status))
      throw conflict("This scheduled payment changed since you opened it. Review it again.");
    throw conflict("You already approved this version of the scheduled payment.");
  }
  await audit(db, actor, "approve", id, after.approved ? "approved" : "awaiting_second_approval", {
    version,
    amountCents: after.amountCents,
    counterparty: after.counterparty,
    approvals: after.approvals.map((a) => a.email),
    required: after.approvalsRequired,
  });
  return after;
}

/** Pauses (no occurrence is paid while paused), resumes (from the next occurrence on or after today) or cancels. */
export async function setSeriesStatus(
  db: Queryable,
  actor: Actor,
  id: string,
  action: "pause" | "resume" | "cancel",
  today: string,
): Promise<SeriesView> {
  const before = await mustGet(db, id);
  const from: readonly SeriesStatus[] = (
    { pause: ["active"], resume: ["paused"], cancel: LIVE_SERIES_STATUSES } as const
  )[action];
  const to: SeriesStatus = ({ pause: "paused", resume: "active", cancel: "cancelled" } as const)[action];
  // A resumed series picks up at today's occurrence: what fell due while paused is not paid late.
  const nextDay = action === "resume" ? firstDayFrom(before.schedule, today) : before.nextDay;
  const rows = await db.query(
    `UPDATE payment_series SET status = $3, next_day = $4, updated_at = now()
     WHERE id = $1 AND status = ANY($2::text[]) RETURNING id`,
    [id, from, action === "resume" && !nextDay ? "ended" : to, nextDay],
  );
  if (!rows[0]) {
    await audit(db, actor, action, id, "stale", { status: before.status });
    throw conflict(`This scheduled payment is ${before.status}: it cannot be ${action}d.`);
  }
  await audit(db, actor, action, id, "ok", { name: before.name, from: before.status });
  return mustGet(db, id);
}

/** Skips one upcoming occurrence (by the day its rule names): it will not be paid. */
export async function skipOccurrence(
  db: Queryable,
  actor: Actor,
  id: string,
  nominalDay: string,
): Promise<void> {
  const s = await mustGet(db, id);
  const hit = occurrencesBetween(
    toRule(s.schedule),
    s.schedule.roll,
    addDays(nominalDay, -7),
    addDays(nominalDay, 7),
  ).find((o) => o.nominal === nominalDay);
  if (!hit) throw conflict("The schedule has no occurrence on that day.");
  const rows = await db.query(
    `INSERT INTO series_occurrences (series_id, nominal_day, day, key, status, reason, actor_email)
     VALUES ($1, $2, $3, $4, 'skipped', 'skipped by a person', $5)
     ON CONFLICT (series_id, nominal_day) DO UPDATE SET status = 'skipped', reason = 'skipped by a person',
       actor_email = $5, updated_at = now()
     WHERE series_occurrences.status = 'due' RETURNING status`,
    [id, nominalDay, hit.day, occurrenceKey(id, nominalDay), actor.email],
  );
  if (!rows[0]) {
    await audit(db, actor, "skip", id, "stale", { nominalDay });
    throw conflict("That occurrence has already been sent or decided: it cannot be skipped.");
  }
  await audit(db, actor, "skip", id, "ok", { nominalDay, day: hit.day, name: s.name });
}

export interface SeriesEdit {
  /** A series keeps its kind: another is refused (400 naming `kind`). */
  kind: SeriesKind;
  name: string;
  amountCents: number;
  fromAccount: string;
  counterparty: string;
  beneficiaryId?: string | null;
  request: Record<string, unknown>;
  schedule: Schedule;
}

/** JSON with every object's keys in order: the same request reads the same however it was stored. */
function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_key, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * Where a series' money lands, as its audit entry shows it: a SEN transfer's account; a wire's
 * beneficiary account and the routing id of the bank that holds it, and the saved payee it came from.
 */
function payeeOf(kind: SeriesKind, request: Record<string, unknown>, beneficiaryId: string | null) {
  const text = (k: string) => (request[k] == null ? null : String(request[k]));
  return kind === "sen"
    ? { account: text("AccountNumberTo") }
    : {
        account: text("beneficiary_account_number"),
        bank: text("beneficiary_bank_routing_id") ?? text("receiving_bank_routing_id"),
        beneficiaryId,
      };
}

/**
 * Changes a series as seen at `version`. A new amount, payee or account raises the version (its
 * approvals start again); the name or the dates alone do not. The editor becomes its preparer.
 */
export async function editSeries(
  db: Queryable,
  actor: Actor,
  id: string,
  version: number,
  e: SeriesEdit,
  today: string,
): Promise<SeriesView> {
  const before = await mustGet(db, id);
  if (e.kind !== before.kind)
    throw invalid([{ field: "kind", message: `must be ${before.kind}: a scheduled payment keeps its kind` }]);
  const [stored] = await db.query<{ request: Record<string, unknown>; beneficiary_id: string | null }>(
    "SELECT request, beneficiary_id FROM payment_series WHERE id = $1",
    [id],
  );
  // What the bank is asked to do is the approved thing: any change to the request (a wire's
  // account or routing number under the same beneficiary name, say) or to the saved payee it came
  // from needs approval again, as a new amount, account or counterparty does.
  const money =
    e.amountCents !== before.amountCents ||
    e.fromAccount !== before.fromAccount ||
    e.counterparty !== before.counterparty ||
    canonicalJson(e.request) !== canonicalJson(stored?.request ?? {}) ||
    (e.beneficiaryId ?? null) !== (stored?.beneficiary_id ?? null);
  const nextDay = firstDayFrom(e.schedule, today);
  const rows = await db.query(
    `UPDATE payment_series SET name = $3, amount_cents = $4, from_account = $5, counterparty = $6, request = $7,
       rule = $8, roll = $9, next_day = $10, version = version + $11, prepared_by = $12, prepared_by_email = $13,
       beneficiary_id = $14,
       status = CASE WHEN $10::text IS NULL THEN 'ended' ELSE status END, updated_at = now()
     WHERE id = $1 AND version = $2 AND status IN (${sqlWords(LIVE_SERIES_STATUSES)}) RETURNING id`,
    [
      id,
      version,
      e.name,
      e.amountCents,
      e.fromAccount,
      e.counterparty,
      JSON.stringify(e.request),
      toRule(e.schedule),
      e.schedule.roll,
      nextDay,
      money ? 1 : 0,
      actor.id,
      actor.email,
      e.beneficiaryId ?? null,
    ],
  );
  if (!rows[0]) {
    await audit(db, actor, "edit", id, "stale", { version });
    throw conflict("This scheduled payment changed since you opened it. Review it again.");
  }
  const after = await mustGet(db, id);
  await audit(db, actor, "edit", id, "ok", {
    version: after.version,
    needsApprovalAgain: money,
    before: {
      amountCents: before.amountCents,
      fromAccount: before.fromAccount,
      counterparty: before.counterparty,
      payee: payeeOf(before.kind, stored?.request ?? {}, stored?.beneficiary_id ?? null),
      words: before.words,
    },
    after: {
      amountCents: after.amountCents,
      fromAccount: after.fromAccount,
      counterparty: after.counterparty,
      payee: payeeOf(after.kind, after.request, after.beneficiaryId),
      words: after.words,
    },
  });
  return after;
}

export interface OccurrenceView {
  seriesId: string;
  nominalDay: string;
  day: string;
  key: string;
  status: OccurrenceStatus;
  amountCents: number | null;
  paymentId: string | null;
  channel: string | null;
  reason: string | null;
  attempts: number;
  updatedAt: string;
}

/** What a series has run (and what was skipped), newest first. */
export async function seriesHistory(db: Queryable, id: string): Promise<OccurrenceView[]> {
  const rows = await db.query<SqlRow<typeof seriesOccurrences>>(
    `SELECT * FROM series_occurrences WHERE series_id = $1 ORDER BY nominal_day DESC LIMIT 500`,
    [id],
  );
  return rows.map((r) => ({
    seriesId: r.series_id,
    nominalDay: r.nominal_day,
    day: r.day,
    key: r.key,
    status: r.status,
    amountCents: r.amount_cents,
    paymentId: r.payment_id,
    channel: r.channel,
    reason: r.reason,
    attempts: r.attempts,
    updatedAt: r.updated_at.toISOString(),
  }));
}

export interface UpcomingOccurrence {
  seriesId: string;
  name: string;
  kind: SeriesKind;
  nominalDay: string;
  day: string;
  amountCents: number;
  fromAccount: string;
  counterparty: string;
  approved: boolean;
  /** due (to be paid), skipped, or what already happened to it; paused while its series is. */
  status: OccurrenceStatus | "paused";
}

/** Every occurrence of the active and paused series paid from `from` to `to`, day by day. */
export async function upcomingOccurrences(
  db: Queryable,
  from: string,
  to: string,
): Promise<UpcomingOccurrence[]> {
  const series = (await listSeries(db)).filter((s) => isLiveSeries(s.status));
  const recorded = await db.query<{ series_id: string; nominal_day: string; status: string }>(
    `SELECT series_id, nominal_day, status FROM series_occurrences WHERE day >= $1 AND day <= $2`,
    [from, to],
  );
  const known = new Map(
    recorded.map((r) => [`${r.series_id}/${r.nominal_day}`, r.status as OccurrenceStatus]),
  );
  const out: UpcomingOccurrence[] = [];
  for (const s of series)
    for (const o of occurrencesBetween(toRule(s.schedule), s.schedule.roll, from, to))
      out.push({
        seriesId: s.id,
        name: s.name,
        kind: s.kind,
        nominalDay: o.nominal,
        day: o.day,
        amountCents: s.amountCents,
        fromAccount: s.fromAccount,
        counterparty: s.counterparty,
        approved: s.approved,
        status: known.get(`${s.id}/${o.nominal}`) ?? (s.status === "paused" ? "paused" : "due"),
      });
  return out.sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name));
}
