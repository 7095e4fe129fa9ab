// POST /api/admin/changes/[id]/approve - apply another administrator's waiting change, if what it was asked against still holds (409 otherwise); never one's own (403)
import { decideChange } from "@/lib/admin/decide-change.ts";
import { withRoute } from "@/lib/api/route.ts";
import { AdminChangeDecisionResponse } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute<undefined, undefined, { id: string }, typeof AdminChangeDecisionResponse>(
  async ({ db, actor, params }) => decideChange(db, actor, String(params.id ?? ""), "approve"),
  { permission: "changes.decide", response: AdminChangeDecisionResponse },
);
