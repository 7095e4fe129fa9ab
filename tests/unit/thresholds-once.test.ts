// The administrator's three approval thresholds are read to decide who must approve in one place,
// the policy evaluator (lib/approvals/policy.ts, which turns them into the default policies). The
// other files that name them only define, store, show or set them; a new reader anywhere else, a
// path that would decide by a threshold of its own, fails this test.
import { describe, expect, it } from "vitest";
import { defaultPolicies } from "../../lib/approvals/policy.ts";
import { copiesOutside } from "../helpers/copies.ts";

const HOMES = [
  // Decides: the only reader that turns a threshold into a number of approvers.
  "lib/approvals/policy.ts",
  // The contract of the settings (their limits and which way weakens a control).
  "lib/dashboard-api/settings.ts",
  // The settings form and page: they show and send the values, and decide nothing.
  "lib/form-rules/settings-form.ts",
  "components/admin/settings-form.tsx",
  // The simulator's administrators change them through the settings route.
  "sim/world.ts",
  "sim/schedule.ts",
];

const READERS = [/senReleaseThresholdCents|releaseDualApprovalCents|incomingWireDualApprovalCents/];

describe("approval thresholds, once", () => {
  it("are read to decide approvals only by the policy evaluator", () => {
    expect(copiesOutside(HOMES, READERS)).toEqual([]);
  });

  it("become the default policies there, each threshold a policy", () => {
    const set = defaultPolicies({
      senReleaseThresholdCents: 1_111,
      releaseDualApprovalCents: 2_222,
      incomingWireDualApprovalCents: 3_333,
    });
    const bounds = set.policies.map((p) => p.when.aboveCents);
    for (const cents of [1_111, 2_222, 3_333]) expect(bounds).toContain(cents);
  });
});
