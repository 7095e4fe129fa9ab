// GET /api/statements/subscriptions/[id]/deliveries/[day] - the BAI2 file a subscription delivered
// for that business day, as it was e-mailed (kept 90 days).
import { notFound } from "@/lib/route-kit/errors.ts";
import { DeliveryParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { deliveredFile } from "@/lib/statements/subscriptions.ts";

export const GET = withRoute(
  async ({ db, params, requestId }) => {
    const file = await deliveredFile(db, params.id, params.day);
    if (!file) throw notFound("No statement was delivered for that day, or it is older than 90 days.");
    return new Response(file.content, {
      status: 200,
      headers: {
        "Content-Type": "text/plain; charset=us-ascii",
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
      },
    });
  },
  { params: DeliveryParams, permission: "accounts.read" },
);
