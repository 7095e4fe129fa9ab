// POST /api/admin/policies/preview - what a policy set would have required of the last 30 days
// of payments, beside what the set in force required (changes nothing)

import { previewPolicies } from "@/lib/approvals/admin.ts";
import { PolicyPreviewResponse, PolicySetInput } from "@/lib/dashboard-api/policies.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(async ({ db, body }) => previewPolicies(db, body), {
  permission: "settings.manage",
  body: PolicySetInput,
  response: PolicyPreviewResponse,
});
