// GET /api/admin/users - every user (AdminUsersResponse); POST - add a user (CreateUserResponse), audited
import { randomBytes } from "node:crypto";
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
  async ({ db, user, body, ip }) => {
    const temporaryPassword = body.password ? undefined : randomBytes(12).toString("base64url");
    try {
      const created = await createUser(db, {
        ...body,
        password: body.password ?? (temporaryPassword as string),
        // The administrator knows this password: it is temporary whether typed or generated.
        mustChange: true,
      });
      await appendAudit(db, {
        ...auditActor(user, ip),
        action: "user.create",
        target: created.email,
        result: "ok",
        detail: { role: body.role },
      });
      const out: CreateUserResponse = { user: toAdminUser(created), temporaryPassword };
      return json(out, { status: 201 });
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
