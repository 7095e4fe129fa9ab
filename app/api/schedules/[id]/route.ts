// GET /api/schedules/[id] - one series and what it has run (SeriesResponse). PUT {version, ...} -
// changes it as seen at that version: any change to what the bank is asked (amount, account,
// payee, any field of the request) needs approval again, a new name or schedule does not; a
// changed series is 409. A series keeps its kind (another is 400 naming `kind`), and a wire series
// is changed only by someone who may prepare wires.

import { EditScheduleRequest, SeriesResponse } from "@/lib/dashboard-api/schedules.ts";
import { notFound } from "@/lib/route-kit/errors.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { scheduleToday, seriesFromForm } from "@/lib/schedules/requests.ts";
import { editSeries, getSeries, seriesHistory } from "@/lib/schedules/series.ts";

export const GET = withRoute(
  async ({ db, params }) => {
    const series = await getSeries(db, params.id);
    if (!series) throw notFound("No such scheduled payment.");
    return { series, history: await seriesHistory(db, series.id) };
  },
  { params: IdParams, permission: "accounts.read", response: SeriesResponse },
);

export const PUT = withRoute(
  async ({ db, params, body, actor, user }) => {
    const series = await editSeries(
      db,
      actor,
      params.id,
      body.version,
      await seriesFromForm(db, body, user.role),
      await scheduleToday(),
    );
    return { series, history: await seriesHistory(db, series.id) };
  },
  { params: IdParams, permission: "transfers.create", body: EditScheduleRequest, response: SeriesResponse },
);
