// POST /api/drafts/[id]/release {version} - approves the draft and, once it has the approvals it
// needs (two different approvers above the release dual-approval limit, else one), sends it to the
// bank with Idempotency-Key = the draft id (DraftResponse; a first of two approvals answers the
// draft still pending, with a message). A wire goes to the backup log when the wire system is down
// (the draft is then "queued"). Never by its preparer (403); a changed or already decided draft,
// or a second approval by the same approver, is 409; an approver invited or reset in the last 24
// hours is refused (403 credentials_recent).
// The answer carries the beneficiary's recent payee changes, as the release dialog showed them.

import { refuseEmbargoedVoter } from "@/lib/auth/vote-guard.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { DraftResponse, ReleaseDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { releaseDraft } from "@/lib/payments/draft-decisions.ts";
import { withPayeeChanges } from "@/lib/payments/payee-changes.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => {
    await refuseEmbargoedVoter(db, actor.id);
    const out = await releaseDraft(db, await getBankClient(), actor, params.id, body);
    const [shown] = await withPayeeChanges(db, [out.draft]);
    return { ...out, draft: shown };
  },
  { params: IdParams, permission: "wires.release", body: ReleaseDraftRequest, response: DraftResponse },
);
