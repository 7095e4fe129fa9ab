// POST /api/statements/subscriptions/[id]/deliveries/[day]/retry - "Retry now" (administrators,
// audited): a failed delivery is due again at once, with a fresh round of attempts, and the next
// run of any instance sends it. A delivered day is never sent again, nor a cancelled
// subscription's (409).
import { conflict, invalid, notFound } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { isIsoDay } from "@/lib/bank-api/dates.ts";
import { isId } from "@/lib/dashboard-api/ids.ts";
import { retryDelivery } from "@/lib/statements/subscriptions.ts";

export const POST = withRoute<undefined, undefined, { id: string; day: string }>(
  async ({ db, actor, params }) => {
    const id = params.id;
    if (!isId(id)) throw invalid([{ field: "id", message: "must be a subscription id" }]);
    if (!isIsoDay(params.day)) throw invalid([{ field: "day", message: "must be a day (YYYY-MM-DD)" }]);
    const delivery = await retryDelivery(db, actor, id, params.day);
    if (delivery === null) throw notFound("No delivery of that subscription for that day.");
    if (delivery === "not-failed")
      throw conflict("Only a failed delivery is retried; this one is not failed.");
    if (delivery === "cancelled")
      throw conflict("The subscription was cancelled; its deliveries are not retried.");
    return { delivery };
  },
  { permission: "settings.manage" },
);
