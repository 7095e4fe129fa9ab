// The audit log: every state-changing action, appended (the table refuses UPDATE and DELETE).
import type { Queryable } from "../db/client.ts";
import type { auditLog } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";

export interface AuditEntry {
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  target?: string | null;
  result: string;
  detail?: Record<string, unknown>;
  ip?: string | null;
}

export interface AuditRecord extends Required<Omit<AuditEntry, "detail">> {
  id: number;
  at: string;
  detail: Record<string, unknown> | null;
}

/** The signed-in user acting through a request, and from where: who a state change is audited as. */
export interface Actor {
  id: string;
  email: string;
  ip?: string | null;
}

/** The entry's who and from where: the signed-in user acting through a request. */
export function auditActor(
  user: { id: string; email: string },
  ip: string | null | undefined,
): Pick<AuditEntry, "actorId" | "actorEmail" | "ip"> {
  return { actorId: user.id, actorEmail: user.email, ip: ip ?? null };
}

const INSERT_AUDIT = `INSERT INTO audit_log (actor_id, actor_email, action, target, result, detail, ip)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`;

function auditValues(e: AuditEntry): unknown[] {
  return [
    e.actorId,
    e.actorEmail,
    e.action,
    e.target ?? null,
    e.result,
    e.detail ? JSON.stringify(e.detail) : null,
    e.ip ?? null,
  ];
}

export async function appendAudit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(INSERT_AUDIT, auditValues(e));
}

/**
 * Appends the entry as the one `done` record of its action on its target: false, and nothing
 * written, when another answer already wrote it. The claim (audit_once) and the entry are one
 * statement, so two instances answering the same retried request at once still write one.
 */
export async function appendAuditOnce(db: Queryable, e: AuditEntry & { target: string }): Promise<boolean> {
  const rows = await db.query(
    `WITH claim AS (
       INSERT INTO audit_once (action, target) VALUES ($3, $4) ON CONFLICT DO NOTHING RETURNING action
     )
     INSERT INTO audit_log (actor_id, actor_email, action, target, result, detail, ip)
     SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::jsonb, $7::text FROM claim RETURNING id`,
    auditValues(e),
  );
  return rows.length > 0;
}

/**
 * Narrows the audit log: who (e-mail contains), the action (exact), and a range of days in a time
 * zone (the dashboard's, in which the audit page shows the times; UTC when not given).
 */
export interface AuditFilter {
  actor?: string;
  action?: string;
  /** First day, YYYY-MM-DD, inclusive. */
  from?: string;
  /** Last day, YYYY-MM-DD, inclusive. */
  to?: string;
  /** The IANA time zone the days are in. */
  timeZone?: string;
}

export async function readAudit(
  db: Queryable,
  limit = 200,
  filter: AuditFilter = {},
): Promise<AuditRecord[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  // LIKE's own wildcards in the typed text match themselves.
  if (filter.actor)
    where.push(`actor_email ILIKE ${param(`%${filter.actor.replace(/[\\%_]/g, "\\$&")}%`)} ESCAPE '\\'`);
  if (filter.action) where.push(`action = ${param(filter.action)}`);
  // A day starts at midnight in the zone: its instant moves with daylight saving time.
  const midnight = (day: string, plusDays: 0 | 1) =>
    `((${param(day)}::date + ${plusDays})::timestamp AT TIME ZONE ${param(filter.timeZone ?? "UTC")})`;
  if (filter.from) where.push(`at >= ${midnight(filter.from, 0)}`);
  if (filter.to) where.push(`at < ${midnight(filter.to, 1)}`);
  const rows = await db.query<SqlRow<typeof auditLog>>(
    `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY id DESC LIMIT ${param(limit)}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    at: new Date(r.at).toISOString(),
    actorId: r.actor_id,
    actorEmail: r.actor_email,
    action: r.action,
    target: r.target,
    result: r.result,
    detail: r.detail,
    ip: r.ip,
  }));
}

/** Every action name the log holds, for the audit page's filter. */
export async function auditActions(db: Queryable): Promise<string[]> {
  const rows = await db.query<Pick<SqlRow<typeof auditLog>, "action">>(
    "SELECT DISTINCT action FROM audit_log ORDER BY action",
  );
  return rows.map((r) => r.action);
}
