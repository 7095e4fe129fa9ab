// POST /api/schedules/sweeps/[sweepId]/status {action: pause|resume} - nothing moves while paused
// (SweepResponse). A move its status does not allow is 409.

import { SweepResponse, SweepStatusRequest } from "@/lib/dashboard-api/schedules.ts";
import { SweepParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { type SweepView, setSweepStatus } from "@/lib/schedules/sweeps.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => ({
    sweep: (await setSweepStatus(db, actor, params.sweepId, body.action)) as SweepView,
  }),
  { params: SweepParams, permission: "transfers.create", body: SweepStatusRequest, response: SweepResponse },
);
