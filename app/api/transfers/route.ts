// POST /api/transfers - a SEN transfer (SenTransferResponse): sent at once up to the release
// threshold, a draft for a second person above it. The form session's key makes it act once.
import { withRoute } from "@/lib/api/route.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { SenTransferRequest, SenTransferResponse } from "@/lib/dashboard-api/transfers.ts";
import { sendSenTransfer } from "@/lib/payments/sen.ts";
import { getDashboardSettings } from "@/lib/settings.ts";

export const POST = withRoute(
  async ({ db, body, actor }) => {
    const settings = await getDashboardSettings(db);
    return sendSenTransfer(db, await getBankClient(), actor, body, {
      releaseThresholdCents: settings.senReleaseThresholdCents,
    });
  },
  { permission: "transfers.create", body: SenTransferRequest, response: SenTransferResponse },
);
