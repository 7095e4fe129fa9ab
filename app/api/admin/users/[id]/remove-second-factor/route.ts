// POST /api/admin/users/[id]/remove-second-factor - for a person who lost their two-step sign-in
// device: a one-time link is e-mailed to them, and the device is removed when they open it and
// prove their password; the administrator removes nothing themselves and sees no link; audited.
// For a user whose role moves or approves money, or administers, it waits for a second
// administrator (202 with the pending change).
import { isPrivilegedRole, requestChange } from "@/lib/admin/changes.ts";
import { issueCredentialLink } from "@/lib/auth/credential-links.ts";
import { findUserInPath } from "@/lib/auth/managed-user.ts";
import { isRole } from "@/lib/auth/permissions.ts";
import { toAdminUser } from "@/lib/auth/users.ts";
import { config } from "@/lib/config.ts";
import { ResetPasswordResponse } from "@/lib/dashboard-api/index.ts";
import { sendMailSoon } from "@/lib/inbox/send-soon.ts";
import { conflict } from "@/lib/route-kit/errors.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { json, withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, user, params, actor }) => {
    const { id, before } = await findUserInPath(db, params.id);
    if (id === user.id) throw conflict("Manage your own two-step sign-in from your profile.");
    if (!before.totp_secret) throw conflict(`${before.email} has no two-step sign-in device to remove.`);
    const role = isRole(before.role) ? before.role : "viewer";
    if (isPrivilegedRole(role)) {
      const change = await db.tx((q) =>
        requestChange(q, actor, {
          kind: "user.totp_removal",
          target: id,
          targetLabel: before.email,
          before: role,
          after: "removal link",
        }),
      );
      return json({ user: toAdminUser(before), pending: [change] } satisfies ResetPasswordResponse, {
        status: 202,
      });
    }
    const { expiresAt } = await db.tx((q) =>
      issueCredentialLink(q, {
        user: before,
        purpose: "totp_removal",
        requestedBy: actor,
        publicUrl: config().publicUrl,
      }),
    );
    sendMailSoon();
    return { user: toAdminUser(before), linkExpiresAt: expiresAt.toISOString() };
  },
  { params: IdParams, permission: "users.manage", response: ResetPasswordResponse },
);
