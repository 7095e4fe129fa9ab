// GET /api/schedules - every series and the occurrences of the next 90 days from the bank's
// business date (SchedulesResponse). POST - a new scheduled or recurring SEN transfer or wire
// (SeriesResponse); the form session's key is its id, so a double submit makes one series.

import { addDays } from "@/lib/bank-api/dates.ts";
import { CreateScheduleRequest, SchedulesResponse, SeriesResponse } from "@/lib/dashboard-api/schedules.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { scheduleToday, seriesFromForm } from "@/lib/schedules/requests.ts";
import { createSeries, listSeries, seriesHistory, upcomingOccurrences } from "@/lib/schedules/series.ts";

export const GET = withRoute(
  async ({ db }) => {
    const today = await scheduleToday();
    const [series, upcoming] = await Promise.all([
      listSeries(db),
      upcomingOccurrences(db, today, addDays(today, 90)),
    ]);
    return { today, series, upcoming };
  },
  { permission: "accounts.read", response: SchedulesResponse },
);

export const POST = withRoute(
  async ({ db, body, actor, user }) => {
    const series = await createSeries(
      db,
      actor,
      await seriesFromForm(db, body, user.role),
      await scheduleToday(),
    );
    return { series, history: await seriesHistory(db, series.id) };
  },
  { permission: "transfers.create", body: CreateScheduleRequest, response: SeriesResponse },
);
