// DELETE /api/statements/subscriptions/[id] - ends a subscription (administrators, audited); the
// files it delivered stay their 90 days.
import { invalid, notFound } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { isId } from "@/lib/dashboard-api/ids.ts";
import { cancelSubscription } from "@/lib/statements/subscriptions.ts";

export const DELETE = withRoute<undefined, undefined, { id: string }>(
  async ({ db, actor, params }) => {
    const id = params.id;
    if (!isId(id)) throw invalid([{ field: "id", message: "must be a subscription id" }]);
    const record = await cancelSubscription(db, actor, id);
    if (!record) throw notFound("No such subscription.");
    return { subscription: record };
  },
  { permission: "settings.manage" },
);
