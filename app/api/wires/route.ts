// POST /api/wires - prepares an outgoing wire as a draft (DraftResponse); it leaves only when
// another user with wires.release releases it.
import { withRoute } from "@/lib/api/route.ts";
import { DraftResponse, WireDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { prepareWireDraft } from "@/lib/payments/wires.ts";

export const POST = withRoute(
  async ({ db, body, actor }) => ({
    draft: await prepareWireDraft(db, actor, body),
  }),
  { permission: "wires.create", body: WireDraftRequest, response: DraftResponse },
);
