// A second administrator decides a waiting change (lib/admin/changes.ts). Approval claims the
// change under a row lock and applies it in the same transaction, after checking that what it was
// asked against still holds: two approvals at once apply it once, and a stale change is refused
// (and closed as stale), never applied over a value that moved on.
import "server-only";
import { lockPolicies, storedPolicySet, writePolicySet } from "../approvals/facts.ts";
import { type Actor, appendAudit } from "../audit/log.ts";
import { issueCredentialLink, resetCredentials } from "../auth/credential-links.ts";
import { isRole } from "../auth/permissions.ts";
import { forgetCachedUser } from "../auth/session-token.ts";
import type { UserRow } from "../auth/users.ts";
import { config } from "../config.ts";
import type { AdminChange, AdminChangeDecisionResponse } from "../dashboard-api/admin-changes.ts";
import { PolicySetInput } from "../dashboard-api/policies.ts";
import { DashboardSettings, SETTING_LABELS } from "../dashboard-api/settings.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { sendMailSoon } from "../inbox/send-soon.ts";
import { conflict, notFound, RouteError } from "../route-kit/errors.ts";
import {
  type AdminChangeRow,
  changeSummary,
  expireChanges,
  settingValueText,
  toAdminChange,
} from "./changes.ts";
import { lockSetting, settingsNow, writeSetting } from "./settings-store.ts";

export type ChangeDecision = "approve" | "reject" | "withdraw";

const DONE_WORDS: Record<string, string> = {
  approved: "approved",
  rejected: "rejected",
  withdrawn: "withdrawn",
  expired: "expired unapproved",
  stale: "closed as stale",
};

const DECISION_ACTIONS = {
  approve: "admin_change.approve",
  reject: "admin_change.reject",
  withdraw: "admin_change.withdraw",
} as const;

type Applied = { ok: true; mailQueued?: boolean } | { ok: false; stale: string };

/** Applies an approved change inside the transaction, or says why it no longer applies. */
/** The second administrator's approval put a change to a user in force: audited as their own act. */
function auditApprovedUserChange(
  q: Queryable,
  approver: Actor,
  action: "user.update" | "user.password_reset",
  target: string,
  detail: Record<string, unknown>,
) {
  return appendAudit(q, {
    actorId: approver.id,
    actorEmail: approver.email,
    action,
    target,
    result: "ok",
    detail,
    ip: approver.ip ?? null,
  });
}

async function applyChange(q: Queryable, c: AdminChangeRow, approver: Actor): Promise<Applied> {
  const story = { changeId: c.id, requestedBy: c.requested_by_email, approvedBy: approver.email };
  const requester: Actor = { id: c.requested_by_id, email: c.requested_by_email, ip: approver.ip };
  if (c.kind === "setting") {
    const key = c.target as keyof DashboardSettings;
    const shape = DashboardSettings.shape[key];
    if (!shape) return { ok: false, stale: `the setting ${c.target} no longer exists` };
    if (!shape.safeParse(c.after).success)
      return { ok: false, stale: `${c.after} is no longer an allowed value for ${SETTING_LABELS[key]}` };
    await lockSetting(q, key);
    const now = (await settingsNow(q))[key];
    if (now !== c.before)
      return {
        ok: false,
        stale: `${SETTING_LABELS[key]} is now ${settingValueText(key, now)}, not ${settingValueText(key, c.before)} as when the change was asked for`,
      };
    await writeSetting(q, key, { from: now, to: c.after, by: requester, detail: story });
    return { ok: true };
  }

  if (c.kind === "policies") {
    const next = PolicySetInput.safeParse(c.after);
    if (!next.success) return { ok: false, stale: "the policy set is no longer one the rules allow" };
    await lockPolicies(q);
    const now = await storedPolicySet(q);
    if (JSON.stringify(now) !== JSON.stringify(c.before ?? null))
      return { ok: false, stale: "the approval policies changed since this change was asked for" };
    await writePolicySet(q, next.data, { from: now, by: requester, detail: story });
    return { ok: true };
  }

  const rows = await q.query<UserRow>("SELECT * FROM users WHERE id = $1 FOR UPDATE", [c.target]);
  const user = rows[0];
  if (!user) return { ok: false, stale: `${c.target_label} no longer exists` };
  if (c.kind === "user.role") {
    if (user.role !== c.before || !isRole(c.after))
      return {
        ok: false,
        stale: `${user.email} is now ${user.role}, not ${c.before} as when it was asked for`,
      };
    await q.query("UPDATE users SET role = $2, updated_at = now() WHERE id = $1", [user.id, c.after]);
    await auditApprovedUserChange(q, approver, "user.update", user.email, {
      role: { from: user.role, to: c.after },
      ...story,
    });
    return { ok: true };
  }
  if (c.kind === "user.enable") {
    if (!user.disabled) return { ok: false, stale: `${user.email} is already enabled` };
    await q.query("UPDATE users SET disabled = false, updated_at = now() WHERE id = $1", [user.id]);
    await auditApprovedUserChange(q, approver, "user.update", user.email, {
      disabled: { from: true, to: false },
      ...story,
    });
    return { ok: true };
  }
  if (c.kind === "user.password_reset") {
    if (user.role !== c.before)
      return {
        ok: false,
        stale: `${user.email} is now ${user.role}, not ${c.before} as when it was asked for`,
      };
    await resetCredentials(q, user.id);
    await auditApprovedUserChange(q, approver, "user.password_reset", user.email, { by: "link", ...story });
    await issueCredentialLink(q, {
      user,
      purpose: "reset",
      requestedBy: requester,
      approvedBy: approver,
      publicUrl: config().publicUrl,
    });
    return { ok: true, mailQueued: true };
  }
  if (c.kind === "user.totp_removal") {
    if (!user.totp_secret) return { ok: false, stale: `${user.email} no longer has a second factor` };
    if (user.role !== c.before)
      return {
        ok: false,
        stale: `${user.email} is now ${user.role}, not ${c.before} as when it was asked for`,
      };
    await issueCredentialLink(q, {
      user,
      purpose: "totp_removal",
      requestedBy: requester,
      approvedBy: approver,
      publicUrl: config().publicUrl,
    });
    return { ok: true, mailQueued: true };
  }
  return { ok: false, stale: `a change of kind ${c.kind} cannot be applied` };
}

/**
 * Approves, rejects or withdraws a waiting change. Its author cannot approve or reject it (403,
 * withdrawing is theirs); no one approves a change to their own account; a change already decided
 * or expired is a 409; an approval whose change no longer applies is a 409 and closes it as stale.
 */
export async function decideChange(
  db: DashboardDb,
  actor: Actor,
  id: string,
  decision: ChangeDecision,
): Promise<AdminChangeDecisionResponse> {
  // Lapsed changes are closed (and audited) in their own transaction: the refusal below would
  // roll back anything done in the deciding one.
  await db.tx((q) => expireChanges(q));
  const outcome = await db.tx(async (q) => {
    await expireChanges(q);
    const rows = await q.query<AdminChangeRow>("SELECT * FROM admin_changes WHERE id = $1 FOR UPDATE", [id]);
    const c = rows[0];
    if (!c) throw notFound("No such change.");
    if (c.status !== "pending")
      throw conflict(
        `This change was already ${DONE_WORDS[c.status] ?? c.status}${c.decided_by_email ? ` by ${c.decided_by_email}` : ""}.`,
      );
    const own = c.requested_by_id === actor.id;
    if (decision === "approve" && own)
      throw new RouteError(
        403,
        "second_admin_required",
        "You asked for this change: a second administrator must approve it.",
      );
    if (decision === "reject" && own)
      throw new RouteError(
        403,
        "forbidden",
        "You asked for this change: withdraw it instead of rejecting it.",
      );
    if (decision === "withdraw" && !own)
      throw new RouteError(
        403,
        "forbidden",
        "Only the administrator who asked for this change can withdraw it; reject it instead.",
      );
    if (decision === "approve" && c.kind.startsWith("user.") && c.target === actor.id)
      throw new RouteError(
        403,
        "second_admin_required",
        "This change is to your own account: another administrator must approve it.",
      );

    let applied: Applied = { ok: true };
    if (decision === "approve") applied = await applyChange(q, c, actor);
    const status = !applied.ok
      ? "stale"
      : ({ approve: "approved", reject: "rejected", withdraw: "withdrawn" } as const)[decision];
    const done = await q.query<AdminChangeRow>(
      `UPDATE admin_changes SET status = $2, decided_by_id = $3, decided_by_email = $4, decided_at = now()
       WHERE id = $1 RETURNING *`,
      [c.id, status, actor.id, actor.email],
    );
    await appendAudit(q, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: DECISION_ACTIONS[decision],
      target: c.target_label,
      result: applied.ok ? status : "refused: stale",
      detail: {
        changeId: c.id,
        kind: c.kind,
        summary: changeSummary(c),
        requestedBy: c.requested_by_email,
        ...(applied.ok ? {} : { reason: applied.stale }),
      },
      ip: actor.ip ?? null,
    });
    return { change: toAdminChange(done[0]), applied };
  });
  if (outcome.change.kind !== "setting" && outcome.change.kind !== "policies")
    forgetCachedUser(outcome.change.target);
  if (!outcome.applied.ok)
    throw conflict(
      `This change no longer applies and was closed: ${outcome.applied.stale}. Ask again if it is still wanted.`,
    );
  if (outcome.applied.mailQueued) sendMailSoon();
  const change: AdminChange = outcome.change;
  return { change };
}
