// Changes that weaken a control and wait for a second administrator (app/api/admin/changes).
// Written with zod's tree-shakable build, as every schema a page carries to the browser.
import * as z from "zod/mini";

export const ADMIN_CHANGE_KINDS = [
  "setting",
  "user.role",
  "user.enable",
  "user.password_reset",
  "policies",
  "user.totp_removal",
] as const;
export type AdminChangeKind = (typeof ADMIN_CHANGE_KINDS)[number];

export const ADMIN_CHANGE_STATUSES = [
  "pending",
  "approved",
  "rejected",
  "withdrawn",
  "expired",
  "stale",
] as const;
export type AdminChangeStatus = (typeof ADMIN_CHANGE_STATUSES)[number];

export const AdminChange = z.object({
  id: z.string(),
  kind: z.enum(ADMIN_CHANGE_KINDS),
  /** The setting's key, or the user's id. */
  target: z.string(),
  /** The setting's key, or the user's e-mail: what a person reads. */
  targetLabel: z.string(),
  /** The value the change was asked against: approval re-checks it still holds. */
  before: z.unknown(),
  after: z.unknown(),
  /** The change in words: "SEN release threshold 250,000.00 → 500,000.00". */
  summary: z.string(),
  status: z.enum(ADMIN_CHANGE_STATUSES),
  requestedBy: z.object({ id: z.string(), email: z.string() }),
  requestedAt: z.string(),
  expiresAt: z.string(),
  decidedBy: z.nullable(z.object({ id: z.string(), email: z.string() })),
  decidedAt: z.nullable(z.string()),
  /**
   * For a change of a user's role or a re-enabling: what happened to that account's credentials
   * and second factor in the last 30 days, newest first, for the second administrator to weigh.
   */
  credentialHistory: z.optional(
    z.array(
      z.object({
        at: z.string(),
        action: z.string(),
        by: z.nullable(z.string()),
        result: z.string(),
        detail: z.nullable(z.record(z.string(), z.unknown())),
      }),
    ),
  ),
});
export type AdminChange = z.infer<typeof AdminChange>;

// GET /api/admin/changes: the changes waiting for a second administrator, oldest first.
export const AdminChangesResponse = z.object({ changes: z.array(AdminChange) });
export type AdminChangesResponse = z.infer<typeof AdminChangesResponse>;

// POST /api/admin/changes/[id]/approve|reject|withdraw. An approved reset or second-factor
// removal e-mails its link to the person; no administrator receives it.
export const AdminChangeDecisionResponse = z.object({ change: AdminChange });
export type AdminChangeDecisionResponse = z.infer<typeof AdminChangeDecisionResponse>;
