// POST /api/wires - prepares an outgoing wire as a draft (DraftResponse); it leaves only when
// another user with wires.release releases it.
import { withRoute } from "@/lib/api/route.ts";
import { DraftResponse, WireDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { prepareWireDraft } from "@/lib/payments/wires.ts";

export const POST = withRoute(
  async ({ db, user, body, ip }) => ({
    draft: await prepareWireDraft(db, { id: user.id, email: user.email, ip }, body),
  }),
  { permission: "wires.create", body: WireDraftRequest, response: DraftResponse },
);
