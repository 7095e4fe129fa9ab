// Approval policies as the administration API carries them (app/api/admin/policies): the policy
// set an administrator states, what waits for a second administrator, and the preview of what a
// set would have required for the last 30 days of payments. Written with zod's tree-shakable build.
import * as z from "zod/mini";
import { RAILS } from "../approvals/policy.ts";
import { AdminChange } from "./admin-changes.ts";

const cents = z
  .int()
  .check(z.minimum(0, "must not be negative"), z.maximum(99_999_999_999_99, "is too large"));
const ids = z
  .array(z.string().check(z.minLength(1), z.maxLength(100)))
  .check(z.minLength(1, "must name at least one"), z.maxLength(100));

export const PolicyInput = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  name: z
    .string()
    .check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(120, "must be at most 120 characters")),
  when: z.object({
    rails: z.optional(z.array(z.enum(RAILS)).check(z.minLength(1, "must name at least one rail"))),
    sourceAccounts: z.optional(ids),
    aboveCents: z.optional(cents),
    upToCents: z.optional(cents),
    payeeNewWithinDays: z.optional(
      z.int().check(z.minimum(1, "must be at least 1 day"), z.maximum(365, "must be at most 365 days")),
    ),
    preparerIds: z.optional(ids),
  }),
  approvers: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  group: z.optional(
    z.object({
      name: z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(80)),
      userIds: ids,
    }),
  ),
});
export type PolicyInput = z.infer<typeof PolicyInput>;

export const PolicySetInput = z.object({
  policies: z.array(PolicyInput).check(z.maxLength(50, "at most 50 policies")),
  velocity: z.object({
    perPreparerDailyCents: z.nullable(cents),
    perAccountDailyCents: z.nullable(cents),
  }),
});
export type PolicySetInput = z.infer<typeof PolicySetInput>;

/** What a policy set would have required of one rail's payments in the last 30 days, beside today's. */
export const PolicyPreviewRow = z.object({
  rail: z.enum(RAILS),
  payments: z.int(),
  /** Payments the proposed set asks more approvers of, and fewer. */
  more: z.int(),
  fewer: z.int(),
  /** A few of those that change, in words. */
  examples: z.array(z.string()),
});

// GET and PUT /api/admin/policies
export const PoliciesResponse = z.object({
  set: PolicySetInput,
  /** The set is today's thresholds (no administrator has stated one yet). */
  isDefault: z.boolean(),
  pending: z.array(AdminChange),
  requested: z.optional(AdminChange),
});
export type PoliciesResponse = z.infer<typeof PoliciesResponse>;

// POST /api/admin/policies/preview
export const PolicyPreviewResponse = z.object({
  since: z.string(),
  rows: z.array(PolicyPreviewRow),
});
export type PolicyPreviewResponse = z.infer<typeof PolicyPreviewResponse>;
