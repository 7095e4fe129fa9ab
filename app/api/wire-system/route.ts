// GET /api/wire-system - whether the wire system is down (something waits in the bank's backup
// log), for the release dialog to say before anyone confirms (WireSystemResponse).

import { WireSystemResponse } from "@/lib/dashboard-api/wires.ts";
import { wireSystemState } from "@/lib/payments/wire-system-state.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ db }) => wireSystemState(db), {
  permission: "wires.create",
  response: WireSystemResponse,
});
