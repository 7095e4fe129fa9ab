// Administrator settings (app/api/admin/settings): dual-control limits, in integer cents, and the
// wait before the approval digest, in minutes. Written
// with zod's tree-shakable build, as every schema a page's form carries to the browser.
import * as z from "zod/mini";
import { AdminChange } from "./admin-changes.ts";

/** The largest limit in cents (the bank's largest amount), and the digest's wait in minutes: the form is built from these. */
export const SETTING_MAX_CENTS = 99_999_999_999_99;
export const DIGEST_MINUTES = { min: 1, max: 10_080 } as const;

const positiveCents = z
  .int()
  .check(
    z.positive("must be more than zero"),
    z.maximum(SETTING_MAX_CENTS, "must be at most 99999999999.99 dollars"),
  );

export const DashboardSettings = z.object({
  /** A SEN transfer above this becomes a draft that another user must release. */
  senReleaseThresholdCents: positiveCents,
  /** An incoming wire above this needs two different approvers before the decision is sent. */
  incomingWireDualApprovalCents: positiveCents,
  /**
   * A draft (wire or SEN transfer) above this needs two approvals by two different approvers,
   * neither its preparer, before it is sent. A limit: raising it weakens the control.
   */
  releaseDualApprovalCents: positiveCents,
  /**
   * What has waited for approval longer than this many minutes is e-mailed, once, in one digest
   * to each person who may act on it. A limit: raising it tells people later.
   */
  approvalDigestAfterMinutes: z
    .int("must be whole minutes")
    .check(
      z.minimum(DIGEST_MINUTES.min, "must be at least 1 minute"),
      z.maximum(DIGEST_MINUTES.max, "must be at most 10080 minutes (a week)"),
    ),
});
export type DashboardSettings = z.infer<typeof DashboardSettings>;

export const SETTING_DEFAULTS: DashboardSettings = {
  senReleaseThresholdCents: 25_000_000,
  incomingWireDualApprovalCents: 100_000_000,
  releaseDualApprovalCents: 100_000_000,
  approvalDigestAfterMinutes: 60,
};

/**
 * The way each setting weakens its control: a change that way waits for a second administrator
 * (lib/admin/changes.ts); a change the other way applies at once. A new setting fails the type
 * check until it says which way is weaker.
 */
export const SETTING_WEAKER: { [K in keyof DashboardSettings]: "raised" | "lowered" | "turned off" } = {
  senReleaseThresholdCents: "raised",
  incomingWireDualApprovalCents: "raised",
  releaseDualApprovalCents: "raised",
  approvalDigestAfterMinutes: "raised",
};

/** Each setting in words, for pending changes and the audit log. */
export const SETTING_LABELS: { [K in keyof DashboardSettings]: string } = {
  senReleaseThresholdCents: "SEN release threshold",
  incomingWireDualApprovalCents: "Two-approver limit for incoming wires",
  releaseDualApprovalCents: "Two-approver limit for releasing drafts",
  approvalDigestAfterMinutes: "Approval digest after (minutes)",
};

/** Whether moving the setting from `from` to `to` weakens its control. */
export function weakensControl(key: keyof DashboardSettings, from: unknown, to: unknown): boolean {
  const way = SETTING_WEAKER[key];
  if (way === "turned off") return from !== false && to === false;
  if (typeof from !== "number" || typeof to !== "number") return true;
  return way === "raised" ? to > from : to < from;
}

// PUT /api/admin/settings: any subset.
export const UpdateSettingsBody = z.strictObject(z.partial(DashboardSettings).shape);
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;

// GET and PUT /api/admin/settings
export const SettingsResponse = z.object({
  settings: DashboardSettings,
  /** When and by whom each setting was last changed; absent while it has its default. */
  changed: z.record(z.string(), z.object({ by: z.nullable(z.string()), at: z.string() })),
  /** Changes that weaken a control, waiting for a second administrator. */
  pending: z.array(AdminChange),
  /** PUT only (202): the changes this request asked for that wait for a second administrator. */
  requested: z.optional(z.array(AdminChange)),
});
export type SettingsResponse = z.infer<typeof SettingsResponse>;
