// POST /api/beneficiaries/[id]/reject {changeId} - a second person rejects a new beneficiary (it is
// removed) or a change to its account or bank details (the approved details stay)
// (BeneficiaryDecisionResponse); audited. Never its author (403); a stale change is 409.

import { BeneficiaryDecisionResponse, DecideBeneficiaryChangeRequest } from "@/lib/dashboard-api/wires.ts";
import { decideBeneficiaryChange } from "@/lib/payments/payee-approvals.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  ({ db, params, body, actor }) => decideBeneficiaryChange(db, actor, params.id, body.changeId, "reject"),
  {
    params: IdParams,
    permission: "beneficiaries.approve",
    body: DecideBeneficiaryChangeRequest,
    response: BeneficiaryDecisionResponse,
  },
);
