// GET /api/admin/users - every user (AdminUsersResponse); POST - add a user (CreateUserResponse),
// audited. A user added with a role that moves or approves money, or administers, starts as a
// viewer and the role waits for a second administrator (202 with the pending change).
import { randomBytes } from "node:crypto";
import { isPrivilegedRole, requestChange } from "@/lib/admin/changes.ts";
import { conflict } from "@/lib/api/errors.ts";
import { json, withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { createUser, EmailTakenError, listUsers, toAdminUser } from "@/lib/auth/users.ts";
import { AdminUsersResponse, CreateUserResponse, NewUserBody } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(
  async ({ db }): Promise<AdminUsersResponse> => ({
    users: (await listUsers(db)).map((u) => toAdminUser(u)),
  }),
  { permission: "users.manage", response: AdminUsersResponse },
);

export const POST = withRoute(
  async ({ db, user, body, ip, actor }) => {
    const temporaryPassword = body.password ? undefined : randomBytes(12).toString("base64url");
    const waits = isPrivilegedRole(body.role);
    try {
      const { created, pending } = await db.tx(async (q) => {
        const created = await createUser(q, {
          ...body,
          role: waits ? "viewer" : body.role,
          password: body.password ?? (temporaryPassword as string),
          // The administrator knows this password: it is temporary whether typed or generated.
          mustChange: true,
        });
        await appendAudit(q, {
          ...auditActor(user, ip),
          action: "user.create",
          target: created.email,
          result: "ok",
          detail: { role: created.role, ...(waits ? { roleAskedFor: body.role } : {}) },
        });
        const pending = waits
          ? [
              await requestChange(q, actor, {
                kind: "user.role",
                target: created.id,
                targetLabel: created.email,
                before: "viewer",
                after: body.role,
              }),
            ]
          : undefined;
        return { created, pending };
      });
      const out: CreateUserResponse = {
        user: toAdminUser(created),
        temporaryPassword,
        ...(pending ? { pending } : {}),
      };
      return json(out, { status: pending ? 202 : 201 });
    } catch (e) {
      if (!(e instanceof EmailTakenError)) throw e;
      await appendAudit(db, {
        ...auditActor(user, ip),
        action: "user.create",
        target: body.email.toLowerCase(),
        result: "refused: e-mail in use",
      });
      throw conflict("A user with this e-mail already exists.", [
        { field: "email", message: "is already in use" },
      ]);
    }
  },
  { permission: "users.manage", body: NewUserBody, response: CreateUserResponse },
);
