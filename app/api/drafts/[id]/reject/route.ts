// POST /api/drafts/[id]/reject {version, reason} - ends a draft unpaid, with the reason (DraftResponse).

import { DraftResponse, RejectDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { rejectDraft } from "@/lib/payments/draft-decisions.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => ({
    draft: await rejectDraft(db, actor, params.id, body),
  }),
  { params: IdParams, permission: "wires.release", body: RejectDraftRequest, response: DraftResponse },
);
