// POST /api/schedules/[id]/approve {version} - approves the series' version for every occurrence
// up to its amount (SeriesResponse). Never by its preparer (403); a changed series, or a second
// approval by the same approver, is 409.

import { ApproveScheduleRequest, SeriesResponse } from "@/lib/dashboard-api/schedules.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { approveSeries, seriesHistory } from "@/lib/schedules/series.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => {
    const series = await approveSeries(db, actor, params.id, body.version);
    return { series, history: await seriesHistory(db, series.id) };
  },
  { params: IdParams, permission: "wires.release", body: ApproveScheduleRequest, response: SeriesResponse },
);
