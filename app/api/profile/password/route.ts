// POST /api/profile/password - replace one's own password, proven by the current one; audited
import { invalid } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { verifyPassword } from "@/lib/auth/passwords.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { findUserById, setUserPassword } from "@/lib/auth/users.ts";
import { ChangePasswordBody, ChangePasswordResponse } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute<
  undefined,
  typeof ChangePasswordBody,
  Record<string, string>,
  typeof ChangePasswordResponse
>(
  async ({ db, user, body, ip }) => {
    const row = await findUserById(db, user.id);
    const ok = !!row && (await verifyPassword(row.password_hash, body.currentPassword));
    await appendAudit(db, {
      ...auditActor(user, ip),
      action: "password.change",
      target: user.email,
      result: ok ? "ok" : "refused: wrong current password",
    });
    if (!ok)
      throw invalid(
        [{ field: "currentPassword", message: "is not your current password" }],
        "The current password is not right.",
      );
    await setUserPassword(db, user.id, body.newPassword);
    forgetCachedUser(user.id);
    return { changed: true as const };
  },
  { body: ChangePasswordBody, response: ChangePasswordResponse },
);
