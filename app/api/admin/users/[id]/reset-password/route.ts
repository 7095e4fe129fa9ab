// POST /api/admin/users/[id]/reset-password - a temporary password (shown once) that the user must
// replace at the next sign-in; lifts a lockout too; audited
import { randomBytes } from "node:crypto";
import { conflict } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { auditActor } from "@/lib/auth/audit.ts";
import { findUserInPath, settleUserChange } from "@/lib/auth/managed-user.ts";
import { resetUserPassword } from "@/lib/auth/users.ts";
import { ResetPasswordResponse } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute<undefined, undefined, { id: string }, typeof ResetPasswordResponse>(
  async ({ db, user, params, ip }) => {
    const { id, before } = await findUserInPath(db, params.id);
    // One's own password is changed on the profile page, with the current one.
    if (id === user.id) throw conflict("Change your own password from your profile.");
    const temporaryPassword = randomBytes(12).toString("base64url");
    const after = await resetUserPassword(db, id, temporaryPassword);
    const changed = { before, after, detail: { mustChange: true } };
    const settled = await settleUserChange(db, auditActor(user, ip), "user.password_reset", changed);
    return { user: settled, temporaryPassword };
  },
  { permission: "users.manage", response: ResetPasswordResponse },
);
