// POST /api/schedules/sweeps/[sweepId]/status {action: pause|resume} - nothing moves while paused
// (SweepResponse). A move its status does not allow is 409.
import { SweepParams } from "@/lib/api/params.ts";
import { withRoute } from "@/lib/api/route.ts";
import { SweepResponse, SweepStatusRequest } from "@/lib/dashboard-api/schedules.ts";
import { type SweepView, setSweepStatus } from "@/lib/schedules/sweeps.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => ({
    sweep: (await setSweepStatus(db, actor, params.sweepId, body.action)) as SweepView,
  }),
  { params: SweepParams, permission: "transfers.create", body: SweepStatusRequest, response: SweepResponse },
);
