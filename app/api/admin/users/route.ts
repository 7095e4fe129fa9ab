// GET /api/admin/users - every user (AdminUsersResponse); POST - invite a user (CreateUserResponse),
// audited: the person is e-mailed a one-time link and chooses their own password, which no
// administrator sets or sees. A user added with a role that moves or approves money, or
// administers, starts as a viewer and the role waits for a second administrator (202 with it).
import { isPrivilegedRole, requestChange } from "@/lib/admin/changes.ts";
import { appendAudit, auditActor } from "@/lib/audit/log.ts";
import { issueCredentialLink, unknowablePasswordHash } from "@/lib/auth/credential-links.ts";
import { createUser, EmailTakenError, listUsers, toAdminUser } from "@/lib/auth/users.ts";
import { config } from "@/lib/config.ts";
import { AdminUsersResponse, CreateUserResponse, NewUserBody } from "@/lib/dashboard-api/index.ts";
import { sendMailSoon } from "@/lib/inbox/send-soon.ts";
import { conflict } from "@/lib/route-kit/errors.ts";
import { json, withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db }): Promise<AdminUsersResponse> => ({
    users: (await listUsers(db)).map((u) => toAdminUser(u)),
  }),
  { permission: "users.manage", response: AdminUsersResponse },
);

export const POST = withRoute(
  async ({ db, user, body, ip, actor }) => {
    const waits = isPrivilegedRole(body.role);
    try {
      const { created, pending, expiresAt } = await db.tx(async (q) => {
        const created = await createUser(q, {
          ...body,
          role: waits ? "viewer" : body.role,
          // A password nobody knows: the account opens only through the invitation link.
          passwordHash: await unknowablePasswordHash(),
          mustChange: true,
          invited: true,
        });
        await appendAudit(q, {
          ...auditActor(user, ip),
          action: "user.create",
          target: created.email,
          result: "ok",
          detail: { role: created.role, ...(waits ? { roleAskedFor: body.role } : {}) },
        });
        const { expiresAt } = await issueCredentialLink(q, {
          user: created,
          purpose: "invite",
          requestedBy: actor,
          publicUrl: config().publicUrl,
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
        return { created, pending, expiresAt };
      });
      sendMailSoon();
      const out: CreateUserResponse = {
        user: toAdminUser(created),
        invitationExpiresAt: expiresAt.toISOString(),
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
