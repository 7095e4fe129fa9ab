// POST /api/wires - prepares an outgoing wire as a draft (DraftResponse); it leaves only when
// another user with wires.release releases it.

import { DraftResponse, WireDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { prepareWireDraft } from "@/lib/payments/wires.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, body, actor }) => ({
    draft: await prepareWireDraft(db, actor, body),
  }),
  { permission: "wires.create", body: WireDraftRequest, response: DraftResponse },
);
