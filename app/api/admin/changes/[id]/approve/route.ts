// POST /api/admin/changes/[id]/approve - apply another administrator's waiting change, if what it was asked against still holds (409 otherwise); never one's own (403)
import { decideChange } from "@/lib/admin/decide-change.ts";
import { AdminChangeDecisionResponse } from "@/lib/dashboard-api/index.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, actor, params }) => decideChange(db, actor, params.id, "approve"),
  { params: IdParams, permission: "changes.decide", response: AdminChangeDecisionResponse },
);
