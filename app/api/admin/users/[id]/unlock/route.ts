// POST /api/admin/users/[id]/unlock - lift a lockout after failed sign-ins at once, audited

import { auditActor } from "@/lib/audit/log.ts";
import { findUserInPath, settleUserChange } from "@/lib/auth/managed-user.ts";
import { toAdminUser, unlockUser } from "@/lib/auth/users.ts";
import { UpdateUserResponse } from "@/lib/dashboard-api/index.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, user, params, ip }) => {
    const { id, before } = await findUserInPath(db, params.id);
    const wasLocked = toAdminUser(before).locked;
    const after = await unlockUser(db, id);
    const detail = { wasLocked, failedAttempts: before.failed_attempts };
    return {
      user: await settleUserChange(db, auditActor(user, ip), "user.unlock", { before, after, detail }),
    };
  },
  { params: IdParams, permission: "users.manage", response: UpdateUserResponse },
);
