// POST /api/schedules/sweeps/[sweepId]/approve {version} - approves the sweep's version
// (SweepResponse). Never by the person who set it up (403); a changed sweep, or a second approval
// by the same approver, is 409.

import { ApproveSweepRequest, SweepResponse } from "@/lib/dashboard-api/schedules.ts";
import { SweepParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { approveSweep } from "@/lib/schedules/sweeps.ts";

export const POST = withRoute(
  async ({ db, params, body, actor }) => ({
    sweep: await approveSweep(db, actor, params.sweepId, body.version),
  }),
  { params: SweepParams, permission: "wires.release", body: ApproveSweepRequest, response: SweepResponse },
);
