// PATCH /api/admin/users/[id] - change a user's role or disable / enable them, audited
import { z } from "zod";
import { conflict } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { findUserInPath, settleUserChange } from "@/lib/auth/managed-user.ts";
import { ROLES } from "@/lib/auth/permissions.ts";
import { updateUser } from "@/lib/auth/users.ts";
import { UpdateUserResponse, userName } from "@/lib/dashboard-api/index.ts";

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

export const PATCH = withRoute<undefined, typeof change, { id: string }, typeof UpdateUserResponse>(
  async ({ db, user, params, body, ip }) => {
    const { id, before } = await findUserInPath(db, params.id);
    // An administrator cannot lock themselves out of user management.
    if (id === user.id && (body.disabled === true || (body.role && body.role !== "admin"))) {
      await appendAudit(db, {
        ...auditActor(user, ip),
        action: "user.update",
        target: before.email,
        result: "refused: own account",
        detail: body,
      });
      throw conflict("You cannot disable your own account or remove your own admin role.");
    }
    const after = await updateUser(db, id, body);
    const detail = {
      ...(body.role !== undefined ? { role: { from: before.role, to: body.role } } : {}),
      ...(body.disabled !== undefined ? { disabled: { from: before.disabled, to: body.disabled } } : {}),
      ...(body.name !== undefined ? { name: { from: before.name, to: body.name } } : {}),
    };
    return {
      user: await settleUserChange(db, auditActor(user, ip), "user.update", { before, after, detail }),
    };
  },
  { permission: "users.manage", body: change, response: UpdateUserResponse },
);
