// Users and the audit log (app/api/admin/*). Written with zod's tree-shakable build, as every
// schema a page's form carries to the browser.
import * as z from "zod/mini";
import { PASSWORD_MIN_LENGTH } from "../auth/password-rules.ts";
import { ROLES } from "../auth/permissions.ts";
import { calendarDay } from "../bank-api/fields.ts";
import { TEXT_CHECKS } from "../bank-api/rules.ts";
import { AdminChange } from "./admin-changes.ts";

export const AdminUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  disabled: z.boolean(),
  /** Locked after repeated failed sign-ins; unlocks by itself. */
  locked: z.boolean(),
  totpEnabled: z.boolean(),
  /** A reset password not yet replaced by the user. */
  resetPending: z.boolean(),
  lastSignInAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

// GET /api/admin/users
export const AdminUsersResponse = z.object({ users: z.array(AdminUser) });
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

/**
 * A user's name as typed (others read it beside what the user did): no control or invisible
 * formatting characters, the bank's rule for the text it takes; checked before trimming, which
 * would drop a byte-order mark or a line separator at either end unseen.
 */
export const userName = z
  .string()
  .check(
    z.refine(...TEXT_CHECKS.noHiddenText),
    z.trim(),
    z.minLength(1, "is required"),
    z.maxLength(100, "must be at most 100 characters"),
    z.refine(...TEXT_CHECKS.noControl),
  );

// POST /api/admin/users: the new user. No password: the person is e-mailed an invitation link
// and chooses their own, so no administrator ever knows it.
export const NewUserBody = z.object({
  email: z.email("must be an e-mail address").check(z.maxLength(320, "must be at most 320 characters")),
  name: userName,
  role: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }),
});
export type NewUserBody = z.infer<typeof NewUserBody>;

// POST /api/admin/users: the invitation's expiry. A role that moves or approves money, or
// administers, waits for a second administrator (202, in `pending`): until then the user is a viewer.
export const CreateUserResponse = z.object({
  user: AdminUser,
  /** ISO instant the invitation link e-mailed to the person stops working. */
  invitationExpiresAt: z.string(),
  pending: z.optional(z.array(AdminChange)),
});
export type CreateUserResponse = z.infer<typeof CreateUserResponse>;

export const AuditEntry = z.object({
  id: z.int(),
  at: z.string(),
  actorId: z.nullable(z.string()),
  actorEmail: z.nullable(z.string()),
  action: z.string(),
  target: z.nullable(z.string()),
  result: z.string(),
  detail: z.nullable(z.record(z.string(), z.unknown())),
  ip: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

// GET /api/admin/audit
export const AuditResponse = z.object({ entries: z.array(AuditEntry) });
export type AuditResponse = z.infer<typeof AuditResponse>;

/** Typed text to search by: trimmed, at most `max` characters, no control characters. */
const searchText = (max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.maxLength(max, `must be at most ${max} characters`),
      z.refine(...TEXT_CHECKS.noControl),
    );

// GET /api/admin/audit and /api/admin/audit/export: who (e-mail contains), action, days (in the
// dashboard's time zone, DASHBOARD_TIME_ZONE)
export const AuditQuery = z
  .object({
    actor: z.optional(searchText(254)),
    action: z.optional(searchText(100)),
    from: z.optional(calendarDay()),
    to: z.optional(calendarDay()),
  })
  .check(
    z.refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "must not be before from" }),
  );
export type AuditQuery = z.infer<typeof AuditQuery>;

// PATCH /api/admin/users/[id]; POST /api/admin/users/[id]/unlock. A grant of more permissions or a
// re-enabling waits for a second administrator (202, in `pending`); the rest applies at once.
export const UpdateUserResponse = z.object({ user: AdminUser, pending: z.optional(z.array(AdminChange)) });
export type UpdateUserResponse = z.infer<typeof UpdateUserResponse>;

// POST /api/admin/users/[id]/reset-password: the old password stops working, every session of the
// user ends, and a one-time link is e-mailed to the person, who chooses a new password. For a user
// whose role moves or approves money, or administers, the reset waits for a second administrator
// instead (202, in `pending`). POST /api/admin/users/[id]/remove-second-factor: the same, for a
// lost device (the link removes the second factor once the person's password proves it is them).
export const ResetPasswordResponse = z.object({
  user: AdminUser,
  /** ISO instant the link e-mailed to the person stops working; absent while a second administrator is needed. */
  linkExpiresAt: z.optional(z.string()),
  pending: z.optional(z.array(AdminChange)),
});
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>;

// POST /api/account-link and /api/account-link/use (no session): what a one-time link is for, and using it.
export const AccountLinkBody = z.object({
  token: z.string().check(z.regex(/^[A-Za-z0-9_-]{20,100}$/, "is not a link's token")),
});
export type AccountLinkBody = z.infer<typeof AccountLinkBody>;

export const AccountLinkInfo = z.object({
  purpose: z.enum(["invite", "reset", "totp_removal"]),
  email: z.string(),
  expiresAt: z.string(),
});
export type AccountLinkInfo = z.infer<typeof AccountLinkInfo>;

export const UseAccountLinkBody = z
  .object({
    token: z.string().check(z.regex(/^[A-Za-z0-9_-]{20,100}$/, "is not a link's token")),
    newPassword: z.optional(
      z
        .string()
        .check(
          z.minLength(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`),
          z.maxLength(200, "Use at most 200 characters."),
        ),
    ),
    confirmPassword: z.optional(z.string()),
    currentPassword: z.optional(z.string().check(z.maxLength(1024, "must be at most 1,024 characters"))),
  })
  .check(
    z.refine((b) => b.newPassword === undefined || b.newPassword === b.confirmPassword, {
      message: "The two passwords differ.",
      path: ["confirmPassword"],
    }),
  );
export type UseAccountLinkBody = z.infer<typeof UseAccountLinkBody>;

export const UseAccountLinkResponse = z.object({
  purpose: z.enum(["invite", "reset", "totp_removal"]),
  email: z.string(),
});
export type UseAccountLinkResponse = z.infer<typeof UseAccountLinkResponse>;
