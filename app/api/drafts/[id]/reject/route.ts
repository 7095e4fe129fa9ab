// POST /api/drafts/[id]/reject {version, reason} - ends a draft unpaid, with the reason (DraftResponse).
import { IdParams } from "@/lib/api/params.ts";
import { withRoute } from "@/lib/api/route.ts";
import { DraftResponse, RejectDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { rejectDraft } from "@/lib/payments/draft-decisions.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => ({
    draft: await rejectDraft(db, actor, params.id, body),
  }),
  { params: IdParams, permission: "wires.release", body: RejectDraftRequest, response: DraftResponse },
);
