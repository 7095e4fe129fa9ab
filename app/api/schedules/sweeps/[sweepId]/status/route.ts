// POST /api/schedules/sweeps/[sweepId]/status {action: pause|resume} - nothing moves while paused
// (SweepResponse). A move its status does not allow is 409.
import { withRoute } from "@/lib/api/route.ts";
import { SweepResponse, SweepStatusRequest } from "@/lib/dashboard-api/schedules.ts";
import { type SweepView, setSweepStatus } from "@/lib/schedules/sweeps.ts";

export const POST = withRoute<
  undefined,
  typeof SweepStatusRequest,
  { sweepId: string },
  typeof SweepResponse
>(
  async ({ db, params, body, actor }) => ({
    sweep: (await setSweepStatus(db, actor, params.sweepId, body.action)) as SweepView,
  }),
  { permission: "transfers.create", body: SweepStatusRequest, response: SweepResponse },
);
