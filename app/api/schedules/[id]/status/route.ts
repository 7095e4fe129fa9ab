// POST /api/schedules/[id]/status {action: pause|resume|cancel} - nothing is paid while paused; a
// resumed series goes on from today's occurrence (SeriesResponse). A move its status does not allow is 409.

import { ScheduleStatusRequest, SeriesResponse } from "@/lib/dashboard-api/schedules.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { scheduleToday } from "@/lib/schedules/requests.ts";
import { seriesHistory, setSeriesStatus } from "@/lib/schedules/series.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => {
    const series = await setSeriesStatus(db, actor, params.id, body.action, await scheduleToday());
    return { series, history: await seriesHistory(db, series.id) };
  },
  { params: IdParams, permission: "transfers.create", body: ScheduleStatusRequest, response: SeriesResponse },
);
