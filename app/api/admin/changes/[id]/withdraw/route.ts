// POST /api/admin/changes/[id]/withdraw - take back one's own waiting change; audited
import { decideChange } from "@/lib/admin/decide-change.ts";
import { AdminChangeDecisionResponse } from "@/lib/dashboard-api/index.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, actor, params }) => decideChange(db, actor, params.id, "withdraw"),
  { params: IdParams, permission: "changes.decide", response: AdminChangeDecisionResponse },
);
