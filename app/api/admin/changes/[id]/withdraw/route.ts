// POST /api/admin/changes/[id]/withdraw - take back one's own waiting change; audited
import { decideChange } from "@/lib/admin/decide-change.ts";
import { withRoute } from "@/lib/api/route.ts";
import { AdminChangeDecisionResponse } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute<undefined, undefined, { id: string }, typeof AdminChangeDecisionResponse>(
  async ({ db, actor, params }) => decideChange(db, actor, String(params.id ?? ""), "withdraw"),
  { permission: "changes.decide", response: AdminChangeDecisionResponse },
);
