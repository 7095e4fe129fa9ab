// POST /api/transfers - a SEN transfer (SenTransferResponse): sent at once when the approval policy
// needs no approver (up to the release threshold and within the daily totals), else a draft; the form session's key makes it act once.

import { getBankClient } from "@/lib/bank-client/index.ts";
import { SenTransferRequest, SenTransferResponse } from "@/lib/dashboard-api/transfers.ts";
import { sendSenTransfer } from "@/lib/payments/sen.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, body, actor }) => {
    return sendSenTransfer(db, await getBankClient(), actor, body);
  },
  { permission: "transfers.create", body: SenTransferRequest, response: SenTransferResponse },
);
