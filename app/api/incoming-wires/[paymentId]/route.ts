// POST /api/incoming-wires/[paymentId] - approve, cancel or return one incoming wire (a vote when it needs two approvers); an approval or
// return by a user invited or reset in the last 24 hours is refused (403 credentials_recent)

import { refuseEmbargoedVoter } from "@/lib/auth/vote-guard.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  IncomingWireDecisionRequest,
  IncomingWireDecisionResponse,
} from "@/lib/dashboard-api/incoming-wires.ts";
import { decideIncomingWire } from "@/lib/incoming-wires/decide.ts";
import { PaymentParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => {
    // Approving or returning moves money; cancelling does not.
    if (body.action !== "cancel") await refuseEmbargoedVoter(db, actor.id);
    return decideIncomingWire(db, await getBankClient(), actor, params.paymentId, body);
  },
  {
    params: PaymentParams,
    permission: "wires.act",
    body: IncomingWireDecisionRequest,
    response: IncomingWireDecisionResponse,
  },
);
