// How many approvers a payment needs before it goes: the rule a manual payment follows, judged
// when it is asked (each occurrence asks again at its send), so a series obeys the limits in force.
import "server-only";
import type { Queryable } from "../db/client.ts";
import { approvalsRequired } from "../payments/drafts.ts";
import { getDashboardSettings } from "../settings.ts";

/**
 * A SEN transfer up to the release threshold goes on its preparer's word (as `sendSenTransfer`
 * sends it at once); above it, and every wire, it is a draft an approver other than the preparer
 * releases: one approval, or two above the release dual-approval limit (`approvalsRequired`).
 */
export async function approvalsNeeded(
  db: Queryable,
  kind: "sen" | "wire",
  amountCents: number,
): Promise<number> {
  const s = await getDashboardSettings(db);
  if (kind === "sen" && amountCents <= s.senReleaseThresholdCents) return 0;
  return approvalsRequired(amountCents, s.releaseDualApprovalCents);
}
