// GET /api/schedules/sweeps - every sweep with its approvals and last moves (SweepsResponse).
// POST - a new sweep (SweepResponse): keep `account` between lowCents and highCents, funded from
// and swept to `fundingAccount` (both the customer's), at runAt each business day; it moves nothing
// until approved. The form session's key is its id, so a double submit makes one sweep.

import { ownAccountNumbers } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { CreateSweepRequest, SweepResponse, SweepsResponse } from "@/lib/dashboard-api/schedules.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { createSweep, listSweeps } from "@/lib/schedules/sweeps.ts";

export const GET = withRoute(async ({ db }) => ({ sweeps: await listSweeps(db) }), {
  permission: "accounts.read",
  response: SweepsResponse,
});

export const POST = withRoute(
  async ({ db, body, actor }) => {
    const { idempotencyKey, ...terms } = body;
    const own = await ownAccountNumbers(await getBankClient());
    return { sweep: await createSweep(db, actor, idempotencyKey.toLowerCase(), terms, own) };
  },
  { permission: "transfers.create", body: CreateSweepRequest, response: SweepResponse },
);
