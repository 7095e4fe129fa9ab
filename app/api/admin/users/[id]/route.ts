// PATCH /api/admin/users/[id] - change a user's name or role, or disable / enable them, audited.
// What takes power away (a lesser role, disabling) applies at once; a role with more permissions or
// re-enabling a disabled user waits for a second administrator (202 with the pending change).
import { z } from "zod";
import { type ChangeRequest, grantsMore, requestChange } from "@/lib/admin/changes.ts";
import { appendAudit, auditActor } from "@/lib/audit/log.ts";
import { findUserInPath, settleUserChange } from "@/lib/auth/managed-user.ts";
import { isRole, ROLES } from "@/lib/auth/permissions.ts";
import { toAdminUser, updateUser } from "@/lib/auth/users.ts";
import type { AdminChange } from "@/lib/dashboard-api/index.ts";
import { UpdateUserResponse, userName } from "@/lib/dashboard-api/index.ts";
import { conflict } from "@/lib/route-kit/errors.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { json, withRoute } from "@/lib/route-kit/route.ts";

const change = z
  .object({
    role: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }).optional(),
    disabled: z.boolean().optional(),
    name: z.optional(userName),
  })
  .refine((c) => c.role !== undefined || c.disabled !== undefined || c.name !== undefined, {
    message: "nothing to change",
    path: ["body"],
  });

export const PATCH = withRoute(
  async ({ db, user, params, body, ip, actor }) => {
    const { id, before } = await findUserInPath(db, params.id);
    // An administrator cannot lock themselves out of user management, nor grant themselves more.
    if (id === user.id && (body.disabled !== undefined || (body.role && body.role !== before.role))) {
      await appendAudit(db, {
        ...auditActor(user, ip),
        action: "user.update",
        target: before.email,
        result: "refused: own account",
        detail: body,
      });
      throw conflict("You cannot disable, enable or change the role of your own account.");
    }
    const beforeRole = isRole(before.role) ? before.role : "viewer";
    const grant = body.role !== undefined && body.role !== beforeRole && grantsMore(beforeRole, body.role);
    const enable = body.disabled === false && before.disabled;
    const now = {
      name: body.name,
      role: body.role !== undefined && !grant ? body.role : undefined,
      disabled: body.disabled === true ? true : undefined,
    };
    // What waits for a second administrator: a grant of more permissions, a re-enabling.
    const waits: Omit<ChangeRequest, "target" | "targetLabel">[] = [
      ...(grant ? [{ kind: "user.role" as const, before: beforeRole, after: body.role }] : []),
      ...(enable ? [{ kind: "user.enable" as const, before: true, after: false }] : []),
    ];
    const { after, pending } = await db.tx(async (q) => {
      const pending: AdminChange[] = [];
      for (const w of waits)
        pending.push(await requestChange(q, actor, { ...w, target: id, targetLabel: before.email }));
      const changesNow = now.name !== undefined || now.role !== undefined || now.disabled !== undefined;
      return { after: changesNow ? await updateUser(q, id, now) : before, pending };
    });
    const detail = {
      ...(now.role !== undefined ? { role: { from: before.role, to: now.role } } : {}),
      ...(now.disabled !== undefined ? { disabled: { from: before.disabled, to: now.disabled } } : {}),
      ...(now.name !== undefined ? { name: { from: before.name, to: now.name } } : {}),
    };
    const shown = Object.keys(detail).length
      ? await settleUserChange(db, auditActor(user, ip), "user.update", { before, after, detail })
      : toAdminUser(before);
    if (!pending.length) return { user: shown };
    return json({ user: shown, pending } satisfies UpdateUserResponse, { status: 202 });
  },
  { params: IdParams, permission: "users.manage", body: change, response: UpdateUserResponse },
);
