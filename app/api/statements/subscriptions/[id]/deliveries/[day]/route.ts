// GET /api/statements/subscriptions/[id]/deliveries/[day] - the BAI2 file a subscription delivered
// for that business day, as it was e-mailed (kept 90 days).
import { invalid, notFound } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { isIsoDay } from "@/lib/bank-api/dates.ts";
import { isId } from "@/lib/dashboard-api/ids.ts";
import { deliveredFile } from "@/lib/statements/subscriptions.ts";

export const GET = withRoute<undefined, undefined, { id: string; day: string }>(
  async ({ db, params, requestId }) => {
    const id = params.id;
    if (!isId(id)) throw invalid([{ field: "id", message: "must be a subscription id" }]);
    if (!isIsoDay(params.day)) throw invalid([{ field: "day", message: "must be a day (YYYY-MM-DD)" }]);
    const file = await deliveredFile(db, id, params.day);
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
  { permission: "accounts.read" },
);
