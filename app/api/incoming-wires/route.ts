// GET /api/incoming-wires - the approval queue: incoming wires in Pre-Approval, oldest first, and the wires decided today.
// The page polls it every few seconds: a queue that has not changed since the version the page
// names (If-None-Match) is answered 304 with only the time it was read (X-As-Of), so the page
// neither downloads nor parses a thousand wires again.
import { createHash } from "node:crypto";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { IncomingWiresResponse } from "@/lib/dashboard-api/incoming-wires.ts";
import { readQueue } from "@/lib/incoming-wires/queue.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ db }) => readQueue(db, await getBankClient()), {
  permission: "wires.act",
  response: IncomingWiresResponse,
  version: ({ asOf, ...queue }) => ({
    tag: createHash("sha256").update(JSON.stringify(queue)).digest("base64url"),
    headers: { "X-As-Of": asOf },
  }),
});
