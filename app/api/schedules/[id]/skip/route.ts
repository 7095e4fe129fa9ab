// POST /api/schedules/[id]/skip {nominalDay} - one occurrence (named by the day its rule names) is
// not paid (SeriesResponse); one already sent or decided is 409.

import { SeriesResponse, SkipOccurrenceRequest } from "@/lib/dashboard-api/schedules.ts";
import { notFound } from "@/lib/route-kit/errors.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { getSeries, seriesHistory, skipOccurrence } from "@/lib/schedules/series.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => {
    await skipOccurrence(db, actor, params.id, body.nominalDay);
    const series = await getSeries(db, params.id);
    if (!series) throw notFound("No such scheduled payment.");
    return { series, history: await seriesHistory(db, series.id) };
  },
  { params: IdParams, permission: "transfers.create", body: SkipOccurrenceRequest, response: SeriesResponse },
);
