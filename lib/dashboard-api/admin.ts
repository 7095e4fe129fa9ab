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

// POST /api/admin/users: the new user; without a password a temporary one is made (shown once).
export const NewUserBody = z.object({
  email: z.email("must be an e-mail address").check(z.maxLength(320, "must be at most 320 characters")),
  name: userName,
  role: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }),
  password: z.optional(
    z
      .string()
      .check(
        z.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
        z.maxLength(200, "must be at most 200 characters"),
      ),
  ),
});
export type NewUserBody = z.infer<typeof NewUserBody>;

// POST /api/admin/users: the temporary password is shown once, when none was chosen. A role that
// moves or approves money, or administers, waits for a second administrator (202, in `pending`):
// until then the user is a viewer.
export const CreateUserResponse = z.object({
  user: AdminUser,
  temporaryPassword: z.optional(z.string()),
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

// POST /api/admin/users/[id]/reset-password: a temporary password, shown once, that the user
// must replace at the next sign-in. For a user whose role moves or approves money, or administers,
// the reset waits for a second administrator instead (202, in `pending`; the approver gets the
// temporary password).
export const ResetPasswordResponse = z.object({
  user: AdminUser,
  temporaryPassword: z.optional(z.string()),
  pending: z.optional(z.array(AdminChange)),
});
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>;
