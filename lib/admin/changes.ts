// Changes that weaken a control wait for a second administrator (docs/decisions.md, "No one
// administrator weakens a control"): asking stores a pending change and audits it; the change
// applies only when another administrator approves it (lib/admin/decide-change.ts). A pending
// change expires after PENDING_CHANGE_DAYS.
import "server-only";
import { randomUUID } from "node:crypto";
import { type Actor, appendAudit } from "../audit/log.ts";
import { credentialHistory } from "../auth/credential-links.ts";
import { ROLE_PERMISSIONS, type Role } from "../auth/permissions.ts";
import { formatUsd } from "../bank-api/money.ts";
import type { AdminChange, AdminChangeKind } from "../dashboard-api/admin-changes.ts";
import { type DashboardSettings, SETTING_LABELS } from "../dashboard-api/settings.ts";
import type { Queryable } from "../db/client.ts";
import type { adminChanges } from "../db/schema.ts";
import { conflict } from "../route-kit/errors.ts";
import type { SqlRow } from "../server/sql-row.ts";

/** How long a change waits for a second administrator before it lapses. */
export const PENDING_CHANGE_DAYS = 7;

export type AdminChangeRow = SqlRow<typeof adminChanges>;

/** Whether a user moving from role `from` to `to` gains any permission: a grant, which waits. */
export function grantsMore(from: Role, to: Role): boolean {
  const had = new Set(ROLE_PERMISSIONS[from]);
  return ROLE_PERMISSIONS[to].some((p) => !had.has(p));
}

/**
 * A role that moves or approves money, or administers: whoever holds its password acts with it,
 * so resetting that password waits for a second administrator.
 */
export function isPrivilegedRole(role: Role): boolean {
  return grantsMore("viewer", role);
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** A setting's value in words: an amount in dollars, a switch on or off. */
export function settingValueText(key: string, v: unknown): string {
  if (key.endsWith("Cents") && typeof v === "number") return formatUsd(v);
  if (typeof v === "boolean") return v ? "on" : "off";
  return String(v);
}

/** The change in words, as the pages and the audit log show it. */
export function changeSummary(
  c: Pick<AdminChangeRow, "kind" | "target" | "target_label" | "before" | "after">,
): string {
  const kind = c.kind as AdminChangeKind;
  switch (kind) {
    case "setting": {
      const label = SETTING_LABELS[c.target as keyof DashboardSettings] ?? c.target;
      return `${label}: ${settingValueText(c.target, c.before)} → ${settingValueText(c.target, c.after)}`;
    }
    case "user.role":
      return `${c.target_label}: role ${c.before} → ${c.after}`;
    case "user.enable":
      return `${c.target_label}: disabled → enabled`;
    case "user.password_reset":
      return `${c.target_label} (${c.before}): password reset, a one-time link e-mailed to them`;
    case "policies": {
      const names = (v: unknown) =>
        ((v as { policies?: { name: string; approvers: number }[] } | null)?.policies ?? []).map(
          (p) => `${p.name}: ${p.approvers}`,
        );
      const before = c.before === null ? ["today's thresholds"] : names(c.before);
      return `Approval policies: ${before.join("; ") || "none"} → ${names(c.after).join("; ") || "none"}`;
    }
    case "user.totp_removal":
      return `${c.target_label} (${c.before}): second factor removed for a lost device, through a link e-mailed to them`;
    default:
      return `${c.target_label}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`;
  }
}

export function toAdminChange(r: AdminChangeRow): AdminChange {
  return {
    id: r.id,
    kind: r.kind as AdminChangeKind,
    target: r.target,
    targetLabel: r.target_label,
    before: r.before,
    after: r.after,
    summary: changeSummary(r),
    status: r.status as AdminChange["status"],
    requestedBy: { id: r.requested_by_id, email: r.requested_by_email },
    requestedAt: iso(r.requested_at) as string,
    expiresAt: iso(r.expires_at) as string,
    decidedBy: r.decided_by_id ? { id: r.decided_by_id, email: r.decided_by_email ?? "" } : null,
    decidedAt: iso(r.decided_at),
  };
}

/** Marks pending changes past their time as expired, each audited. */
export async function expireChanges(q: Queryable): Promise<void> {
  const lapsed = await q.query<AdminChangeRow>(
    `UPDATE admin_changes SET status = 'expired', decided_at = now()
     WHERE status = 'pending' AND expires_at <= now() RETURNING *`,
  );
  for (const r of lapsed)
    await appendAudit(q, {
      actorId: null,
      actorEmail: null,
      action: "admin_change.expire",
      target: r.target_label,
      result: "expired",
      detail: { changeId: r.id, kind: r.kind, summary: changeSummary(r), requestedBy: r.requested_by_email },
    });
}

export interface ChangeRequest {
  kind: AdminChangeKind;
  target: string;
  targetLabel: string;
  /** What the change is compared against: approval applies it only while this still holds. */
  before: unknown;
  after: unknown;
}

/**
 * Stores a change that waits for a second administrator, audited. One change waits per target:
 * asking again while one waits is a 409 that says so.
 */
export async function requestChange(q: Queryable, actor: Actor, c: ChangeRequest): Promise<AdminChange> {
  await expireChanges(q);
  const rows = await q.query<AdminChangeRow>(
    `INSERT INTO admin_changes (id, kind, target, target_label, before, after, requested_by_id,
       requested_by_email, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(days => $9))
     ON CONFLICT (kind, target) WHERE status = 'pending' DO NOTHING RETURNING *`,
    [
      randomUUID(),
      c.kind,
      c.target,
      c.targetLabel,
      JSON.stringify(c.before ?? null),
      JSON.stringify(c.after),
      actor.id,
      actor.email,
      PENDING_CHANGE_DAYS,
    ],
  );
  const row = rows[0];
  if (!row) {
    const waiting = await q.query<AdminChangeRow>(
      "SELECT * FROM admin_changes WHERE kind = $1 AND target = $2 AND status = 'pending'",
      [c.kind, c.target],
    );
    const w = waiting[0];
    throw conflict(
      `A change to ${c.targetLabel} already waits for a second administrator${w ? ` (${changeSummary(w)}, asked by ${w.requested_by_email})` : ""}. Approve, reject or withdraw it first.`,
    );
  }
  await appendAudit(q, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: "admin_change.request",
    target: c.targetLabel,
    result: "pending",
    detail: {
      changeId: row.id,
      kind: c.kind,
      before: c.before ?? null,
      after: c.after,
      summary: changeSummary(row),
    },
    ip: actor.ip ?? null,
  });
  return (await withCredentialHistory(q, [toAdminChange(row)]))[0];
}

/** The changes waiting for a second administrator, oldest first; only these kinds when given. */
export async function pendingChanges(q: Queryable, kinds?: AdminChangeKind[]): Promise<AdminChange[]> {
  await expireChanges(q);
  const rows = await q.query<AdminChangeRow>(
    `SELECT * FROM admin_changes WHERE status = 'pending' AND ($1::text[] IS NULL OR kind = ANY ($1))
     ORDER BY requested_at, id`,
    [kinds ?? null],
  );
  return withCredentialHistory(q, rows.map(toAdminChange));
}

/**
 * A role change or a re-enabling carries what happened to the account's credentials and second
 * factor in the last 30 days: a reset an administrator arranged just before asking to raise the
 * same account is what the second administrator must see to refuse it.
 */
export async function withCredentialHistory(q: Queryable, changes: AdminChange[]): Promise<AdminChange[]> {
  const out: AdminChange[] = [];
  for (const c of changes)
    out.push(
      c.kind === "user.role" || c.kind === "user.enable"
        ? { ...c, credentialHistory: await credentialHistory(q, c.targetLabel) }
        : c,
    );
  return out;
}
