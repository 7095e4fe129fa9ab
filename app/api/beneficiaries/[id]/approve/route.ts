// POST /api/beneficiaries/[id]/approve {changeId} - a second person approves a new beneficiary or
// a change to its account or bank details (BeneficiaryDecisionResponse); audited. Never its author
// (403); a change replaced or decided since it was opened is 409.

import { BeneficiaryDecisionResponse, DecideBeneficiaryChangeRequest } from "@/lib/dashboard-api/wires.ts";
import { decideBeneficiaryChange } from "@/lib/payments/payee-approvals.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  ({ db, params, body, actor }) => decideBeneficiaryChange(db, actor, params.id, body.changeId, "approve"),
  {
    params: IdParams,
    permission: "beneficiaries.approve",
    body: DecideBeneficiaryChangeRequest,
    response: BeneficiaryDecisionResponse,
  },
);
