// GET /api/schedules/[id] - one series and what it has run (SeriesResponse). PUT {version, ...} -
// changes it as seen at that version: any change to what the bank is asked (amount, account,
// payee, any field of the request) needs approval again, a new name or schedule does not; a
// changed series is 409. A series keeps its kind (another is 400 naming `kind`), and a wire series
// is changed only by someone who may prepare wires.

import { hasPermission } from "@/lib/auth/permissions.ts";
import { EditScheduleRequest, SeriesResponse } from "@/lib/dashboard-api/schedules.ts";
import { forbidden, invalid, notFound } from "@/lib/route-kit/errors.ts";
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
    const current = await getSeries(db, params.id);
    if (!current) throw notFound("No such scheduled payment.");
    if (current.kind !== body.kind)
      throw invalid([
        { field: "kind", message: `must be ${current.kind}: a scheduled payment keeps its kind` },
      ]);
    if (body.kind === "wire" && !hasPermission(user.role, "wires.create"))
      throw forbidden("Your role does not allow preparing wires.");
    const s = await seriesFromForm(db, body);
    const series = await editSeries(
      db,
      actor,
      params.id,
      body.version,
      {
        name: s.name,
        amountCents: s.amountCents,
        fromAccount: s.fromAccount,
        counterparty: s.counterparty,
        beneficiaryId: s.beneficiaryId,
        request: s.request,
        schedule: s.schedule,
      },
      await scheduleToday(),
    );
    return { series, history: await seriesHistory(db, series.id) };
  },
  { params: IdParams, permission: "transfers.create", body: EditScheduleRequest, response: SeriesResponse },
);
