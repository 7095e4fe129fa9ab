// Administrator settings (app/api/admin/settings): dual-control limits, in integer cents. Written
// with zod's tree-shakable build, as every schema a page's form carries to the browser.
import * as z from "zod/mini";

const positiveCents = z
  .int()
  .check(
    z.positive("must be more than zero"),
    z.maximum(99_999_999_999_99, "must be at most 99999999999.99 dollars"),
  );

export const DashboardSettings = z.object({
  /** A SEN transfer above this becomes a draft that another user must release. */
  senReleaseThresholdCents: positiveCents,
  /** An incoming wire above this needs two different approvers before the decision is sent. */
  incomingWireDualApprovalCents: positiveCents,
});
export type DashboardSettings = z.infer<typeof DashboardSettings>;

export const SETTING_DEFAULTS: DashboardSettings = {
  senReleaseThresholdCents: 25_000_000,
  incomingWireDualApprovalCents: 100_000_000,
};

// PUT /api/admin/settings: any subset.
export const UpdateSettingsBody = z.strictObject(z.partial(DashboardSettings).shape);
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;

// GET and PUT /api/admin/settings
export const SettingsResponse = z.object({
  settings: DashboardSettings,
  /** When and by whom each setting was last changed; absent while it has its default. */
  changed: z.record(z.string(), z.object({ by: z.nullable(z.string()), at: z.string() })),
});
export type SettingsResponse = z.infer<typeof SettingsResponse>;
