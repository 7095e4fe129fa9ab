// POST /api/statements/subscriptions/[id]/deliveries/[day]/retry - "Retry now" (administrators,
// audited): a failed delivery is due again at once, with a fresh round of attempts, and the next
// run of any instance sends it. A delivered day is never sent again, nor a cancelled
// subscription's (409).
import { conflict, notFound } from "@/lib/route-kit/errors.ts";
import { DeliveryParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { retryDelivery } from "@/lib/statements/subscriptions.ts";

export const POST = withRoute(
  async ({ db, actor, params }) => {
    const delivery = await retryDelivery(db, actor, params.id, params.day);
    if (delivery === null) throw notFound("No delivery of that subscription for that day.");
    if (delivery === "not-failed")
      throw conflict("Only a failed delivery is retried; this one is not failed.");
    if (delivery === "cancelled")
      throw conflict("The subscription was cancelled; its deliveries are not retried.");
    return { delivery };
  },
  { params: DeliveryParams, permission: "settings.manage" },
);
