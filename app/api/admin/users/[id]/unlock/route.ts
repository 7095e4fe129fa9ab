// POST /api/admin/users/[id]/unlock - lift a lockout after failed sign-ins at once, audited
import { withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { findUserInPath, toAdminUser, unlockUser } from "@/lib/auth/users.ts";
import { UpdateUserResponse } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute<undefined, undefined, { id: string }, typeof UpdateUserResponse>(
  async ({ db, user, params, ip }) => {
    const { id, before } = await findUserInPath(db, params.id);
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
