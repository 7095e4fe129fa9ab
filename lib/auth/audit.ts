// The audit log: every state-changing action, appended (the table refuses UPDATE and DELETE).
import type { Queryable } from "../db/client.ts";

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

export async function appendAudit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (actor_id, actor_email, action, target, result, detail, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      e.actorId,
      e.actorEmail,
      e.action,
      e.target ?? null,
      e.result,
      e.detail ? JSON.stringify(e.detail) : null,
      e.ip ?? null,
    ],
  );
}

export async function readAudit(db: Queryable, limit = 200): Promise<AuditRecord[]> {
  const rows = await db.query<{
    id: number | string;
    at: Date | string;
    actor_id: string | null;
    actor_email: string | null;
    action: string;
    target: string | null;
    result: string;
    detail: Record<string, unknown> | null;
    ip: string | null;
  }>(
    `SELECT id, at, actor_id, actor_email, action, target, result, detail, ip
     FROM audit_log ORDER BY id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
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
