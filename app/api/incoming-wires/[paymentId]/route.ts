// POST /api/incoming-wires/[paymentId] - approve, cancel or return one incoming wire (a vote when it needs two approvers); an approval or
// return by a user invited or reset in the last 24 hours is refused (403 credentials_recent)
import { invalid } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { refuseEmbargoedVoter } from "@/lib/auth/vote-guard.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  IncomingWireDecisionRequest,
  IncomingWireDecisionResponse,
} from "@/lib/dashboard-api/incoming-wires.ts";
import { decideIncomingWire } from "@/lib/incoming-wires/decide.ts";

export const POST = withRoute<
  undefined,
  typeof IncomingWireDecisionRequest,
  { paymentId: string },
  typeof IncomingWireDecisionResponse
>(
  async ({ db, params, body, actor }) => {
    const paymentId = params.paymentId ?? "";
    if (!/^[A-Za-z0-9]{1,20}$/.test(paymentId))
      throw invalid([{ field: "paymentId", message: "must be a payment id of 1 to 20 letters and digits" }]);
    // Approving or returning moves money; cancelling does not.
    if (body.action !== "cancel") await refuseEmbargoedVoter(db, actor.id);
    return decideIncomingWire(db, await getBankClient(), actor, paymentId, body);
  },
  {
    permission: "wires.act",
    body: IncomingWireDecisionRequest,
    response: IncomingWireDecisionResponse,
  },
);
