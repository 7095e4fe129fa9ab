// Users and the audit log (app/api/admin/*).
import { z } from "zod";
import { ROLES } from "../auth/permissions.ts";

export const AdminUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  disabled: z.boolean(),
  /** Locked after repeated failed sign-ins; unlocks by itself. */
  locked: z.boolean(),
  totpEnabled: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

// GET /api/admin/users
export const AdminUsersResponse = z.object({ users: z.array(AdminUser) });
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

// POST /api/admin/users: the temporary password is shown once, when none was chosen.
export const CreateUserResponse = z.object({ user: AdminUser, temporaryPassword: z.string().optional() });
export type CreateUserResponse = z.infer<typeof CreateUserResponse>;

export const AuditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  result: z.string(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

// GET /api/admin/audit
export const AuditResponse = z.object({ entries: z.array(AuditEntry) });
export type AuditResponse = z.infer<typeof AuditResponse>;

const utcDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");

// GET /api/admin/audit and /api/admin/audit/export: who (e-mail contains), action, UTC days
export const AuditQuery = z
  .object({
    actor: z.string().trim().max(254, "must be at most 254 characters").optional(),
    action: z.string().trim().max(100, "must be at most 100 characters").optional(),
    from: utcDay.optional(),
    to: utcDay.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "must not be before from" });
export type AuditQuery = z.infer<typeof AuditQuery>;

// PATCH /api/admin/users/[id]
export const UpdateUserResponse = z.object({ user: AdminUser });
export type UpdateUserResponse = z.infer<typeof UpdateUserResponse>;
