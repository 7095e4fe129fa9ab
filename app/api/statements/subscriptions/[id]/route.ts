// DELETE /api/statements/subscriptions/[id] - ends a subscription (administrators, audited); the
// files it delivered stay their 90 days.
import { notFound } from "@/lib/route-kit/errors.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { cancelSubscription } from "@/lib/statements/subscriptions.ts";

export const DELETE = withRoute(
  async ({ db, actor, params }) => {
    const record = await cancelSubscription(db, actor, params.id);
    if (!record) throw notFound("No such subscription.");
    return { subscription: record };
  },
  { params: IdParams, permission: "settings.manage" },
);
