// POST /api/admin/users/[id]/reset-password - a temporary password (shown once) that the user must
// replace at the next sign-in; lifts a lockout too; audited. For a user whose role moves or
// approves money, or administers, the reset waits for a second administrator (202 with the pending
// change): whoever holds the temporary password can take the account over.
import { randomBytes } from "node:crypto";
import { isPrivilegedRole, requestChange } from "@/lib/admin/changes.ts";
import { conflict } from "@/lib/api/errors.ts";
import { json, withRoute } from "@/lib/api/route.ts";
import { auditActor } from "@/lib/auth/audit.ts";
import { findUserInPath, settleUserChange } from "@/lib/auth/managed-user.ts";
import { isRole } from "@/lib/auth/permissions.ts";
import { resetUserPassword, toAdminUser } from "@/lib/auth/users.ts";
import { ResetPasswordResponse } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute<undefined, undefined, { id: string }, typeof ResetPasswordResponse>(
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
          after: "temporary password",
        }),
      );
      return json({ user: toAdminUser(before), pending: [change] } satisfies ResetPasswordResponse, {
        status: 202,
      });
    }
    const temporaryPassword = randomBytes(12).toString("base64url");
    const after = await resetUserPassword(db, id, temporaryPassword);
    const changed = { before, after, detail: { mustChange: true } };
    const settled = await settleUserChange(db, auditActor(user, ip), "user.password_reset", changed);
    return { user: settled, temporaryPassword };
  },
  { permission: "users.manage", response: ResetPasswordResponse },
);
