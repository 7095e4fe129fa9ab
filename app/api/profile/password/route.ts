// POST /api/profile/password - replace one's own password, proven by the current one under the
// sign-in's rate limit and lockout; audited.
// The user's other sessions end; the one that made the change goes on.

import { verifyPassword } from "@/lib/auth/passwords.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { findUserById, setUserPassword } from "@/lib/auth/users.ts";
import { ChangePasswordBody, ChangePasswordResponse } from "@/lib/dashboard-api/index.ts";
import { RouteError } from "@/lib/route-kit/errors.ts";
import { checkProofUnderLimits } from "@/lib/route-kit/proof.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, user, body, actor, session }) => {
    const row = await findUserById(db, user.id);
    if (!row) throw new RouteError(401, "unauthenticated", "Sign in again.");
    await checkProofUnderLimits(
      db,
      actor,
      row,
      "password.change",
      {
        field: "currentPassword",
        message: "is not your current password",
        summary: "The current password is not right.",
        reason: "wrong current password",
      },
      () => verifyPassword(row.password_hash, body.currentPassword),
    );
    // Every other session of the user ends; this one goes on.
    await setUserPassword(db, user.id, body.newPassword, {
      sid: session.sid,
      signedInAt: session.signedInAt,
    });
    forgetCachedUser(user.id);
    return { changed: true as const };
  },
  { body: ChangePasswordBody, response: ChangePasswordResponse, beforePasswordChange: "allowed" },
);
