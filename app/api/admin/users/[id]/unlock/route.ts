// POST /api/admin/users/[id]/unlock - lift a lockout after failed sign-ins at once, audited
import { invalid, notFound } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { findUserById, toAdminUser, unlockUser } from "@/lib/auth/users.ts";
import { UpdateUserResponse } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute<undefined, undefined, { id: string }, typeof UpdateUserResponse>(
  async ({ db, user, params, ip }) => {
    const id = String(params.id ?? "");
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw invalid([{ field: "id", message: "is not a user id" }]);
    const before = await findUserById(db, id);
    if (!before) throw notFound("No such user.");
    const wasLocked = toAdminUser(before).locked;
    const after = await unlockUser(db, id);
    forgetCachedUser(id);
    await appendAudit(db, {
      ...auditActor(user, ip),
      action: "user.unlock",
      target: before.email,
      result: "ok",
      detail: { wasLocked, failedAttempts: before.failed_attempts },
    });
    return { user: toAdminUser(after ?? before) };
  },
  { permission: "users.manage", response: UpdateUserResponse },
);
