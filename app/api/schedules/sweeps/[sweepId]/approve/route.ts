// POST /api/schedules/sweeps/[sweepId]/approve {version} - approves the sweep's version
// (SweepResponse). Never by the person who set it up (403); a changed sweep, or a second approval
// by the same approver, is 409.
import { withRoute } from "@/lib/api/route.ts";
import { ApproveSweepRequest, SweepResponse } from "@/lib/dashboard-api/schedules.ts";
import { approveSweep } from "@/lib/schedules/sweeps.ts";

export const POST = withRoute<
  undefined,
  typeof ApproveSweepRequest,
  { sweepId: string },
  typeof SweepResponse
>(
  async ({ db, params, body, actor }) => ({
    sweep: await approveSweep(db, actor, params.sweepId, body.version),
  }),
  { permission: "wires.release", body: ApproveSweepRequest, response: SweepResponse },
);
