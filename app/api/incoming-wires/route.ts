// GET /api/incoming-wires - the approval queue: incoming wires in Pre-Approval, oldest first, and the wires decided today
import { withRoute } from "@/lib/api/route.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { IncomingWiresResponse } from "@/lib/dashboard-api/incoming-wires.ts";
import { readQueue } from "@/lib/incoming-wires/queue.ts";
import { incomingWireSettings } from "@/lib/incoming-wires/settings.ts";

export const GET = withRoute(
  async ({ db }) => readQueue(db, await getBankClient(), await incomingWireSettings(db)),
  { permission: "wires.act", response: IncomingWiresResponse },
);
