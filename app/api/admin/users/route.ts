// GET /api/admin/users - every user (AdminUsersResponse); POST - add a user (CreateUserResponse), audited
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { conflict } from "@/lib/api/errors";
import { json, withRoute } from "@/lib/api/route";
import { appendAudit } from "@/lib/auth/audit";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { ROLES } from "@/lib/auth/permissions";
import { createUser, EmailTakenError, listUsers, toAdminUser } from "@/lib/auth/users";
import { AdminUsersResponse, CreateUserResponse } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(
  async ({ db }): Promise<AdminUsersResponse> => ({
    users: (await listUsers(db)).map((u) => toAdminUser(u)),
  }),
  { permission: "users.manage", response: AdminUsersResponse },
);

const newUser = z.object({
  email: z.email("must be an e-mail address").max(320),
  name: z.string().trim().min(1, "is required").max(100),
  role: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(200)
    .optional(),
});

export const POST = withRoute(
  async ({ db, user, body, ip }) => {
    const temporaryPassword = body.password ? undefined : randomBytes(12).toString("base64url");
    try {
      const created = await createUser(db, {
        ...body,
        password: body.password ?? (temporaryPassword as string),
      });
      await appendAudit(db, {
        actorId: user.id,
        actorEmail: user.email,
        action: "user.create",
        target: created.email,
        result: "ok",
        detail: { role: body.role },
        ip,
      });
      const out: CreateUserResponse = { user: toAdminUser(created), temporaryPassword };
      return json(out, { status: 201 });
    } catch (e) {
      if (!(e instanceof EmailTakenError)) throw e;
      await appendAudit(db, {
        actorId: user.id,
        actorEmail: user.email,
        action: "user.create",
        target: body.email.toLowerCase(),
        result: "refused: e-mail in use",
        ip,
      });
      throw conflict("A user with this e-mail already exists.", [
        { field: "email", message: "is already in use" },
      ]);
    }
  },
  { permission: "users.manage", body: newUser, response: CreateUserResponse },
);
