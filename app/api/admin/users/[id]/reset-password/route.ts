// POST /api/admin/users/[id]/reset-password - the user's password stops working, every session of
// theirs ends, a lockout is lifted, and a one-time link is e-mailed to them to choose a new one:
// the administrator never sets, sees or receives it; audited. For a user whose role moves or
// approves money, or administers, the reset waits for a second administrator (202 with the
// pending change): a reset locks its user out until they act, and starts their day without votes.
import { isPrivilegedRole, requestChange } from "@/lib/admin/changes.ts";
import { appendAudit, auditActor } from "@/lib/audit/log.ts";
import { issueCredentialLink, resetCredentials } from "@/lib/auth/credential-links.ts";
import { findUserInPath } from "@/lib/auth/managed-user.ts";
import { isRole } from "@/lib/auth/permissions.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { findUserById, toAdminUser } from "@/lib/auth/users.ts";
import { config } from "@/lib/config.ts";
import { ResetPasswordResponse } from "@/lib/dashboard-api/index.ts";
import { sendMailSoon } from "@/lib/inbox/send-soon.ts";
import { conflict } from "@/lib/route-kit/errors.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { json, withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, user, params, ip, actor }) => {
    const { id, before } = await findUserInPath(db, params.id);
    // One's own password is changed on the profile page, with the current one.
    if (id === user.id) throw conflict("Change your own password from your profile.");
    const role = isRole(before.role) ? before.role : "viewer";
    if (isPrivilegedRole(role)) {
      const change = await db.tx((q) =>
        requestChange(q, actor, {
          kind: "user.password_reset",
          target: id,
          targetLabel: before.email,
          before: role,
          after: "reset link",
        }),
      );
      return json({ user: toAdminUser(before), pending: [change] } satisfies ResetPasswordResponse, {
        status: 202,
      });
    }
    const { after, expiresAt } = await db.tx(async (q) => {
      await resetCredentials(q, id);
      await appendAudit(q, {
        ...auditActor(user, ip),
        action: "user.password_reset",
        target: before.email,
        result: "ok",
        detail: { by: "link" },
      });
      const { expiresAt } = await issueCredentialLink(q, {
        user: before,
        purpose: "reset",
        requestedBy: actor,
        publicUrl: config().publicUrl,
      });
      return { after: await findUserById(q, id), expiresAt };
    });
    forgetCachedUser(id);
    sendMailSoon();
    return { user: toAdminUser(after ?? before), linkExpiresAt: expiresAt.toISOString() };
  },
  { params: IdParams, permission: "users.manage", response: ResetPasswordResponse },
);
