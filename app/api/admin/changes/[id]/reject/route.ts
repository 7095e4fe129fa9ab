// POST /api/admin/changes/[id]/reject - refuse another administrator's waiting change; audited
import { decideChange } from "@/lib/admin/decide-change.ts";
import { AdminChangeDecisionResponse } from "@/lib/dashboard-api/index.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(async ({ db, actor, params }) => decideChange(db, actor, params.id, "reject"), {
  params: IdParams,
  permission: "changes.decide",
  response: AdminChangeDecisionResponse,
});
