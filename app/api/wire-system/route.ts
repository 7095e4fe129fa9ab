// GET /api/wire-system - whether the wire system is down (something waits in the bank's backup
// log), for the release dialog to say before anyone confirms (WireSystemResponse).
import { withRoute } from "@/lib/api/route.ts";
import { WireSystemResponse } from "@/lib/dashboard-api/wires.ts";
import { wireSystemState } from "@/lib/payments/wire-system-state.ts";

export const GET = withRoute(async ({ db }) => wireSystemState(db), {
  permission: "wires.create",
  response: WireSystemResponse,
});
