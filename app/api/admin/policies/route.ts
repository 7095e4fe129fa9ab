// GET /api/admin/policies - the approval policies in force and the change waiting for a second
// administrator; PUT - ask for a new set: every change waits for a second administrator (202)

import { readPolicies, requestPolicies } from "@/lib/approvals/admin.ts";
import { PoliciesResponse, PolicySetInput } from "@/lib/dashboard-api/policies.ts";
import { json, withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ db }) => readPolicies(db), {
  permission: "settings.manage",
  response: PoliciesResponse,
});

export const PUT = withRoute(
  async ({ db, body, actor }) => json(await requestPolicies(db, actor, body), { status: 202 }),
  { permission: "settings.manage", body: PolicySetInput, response: PoliciesResponse },
);
