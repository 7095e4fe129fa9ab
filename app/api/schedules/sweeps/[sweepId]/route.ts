// PUT /api/schedules/sweeps/[sweepId] {version, ...terms} - changes a sweep as seen at that version
// (SweepResponse): a wider band or other accounts need approval again; a changed sweep is 409.
// DELETE - ends it (204); its moves stay in history and the audit.

import { ownAccountNumbers } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { EditSweepRequest, SweepResponse } from "@/lib/dashboard-api/schedules.ts";
import { SweepParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { editSweep, setSweepStatus } from "@/lib/schedules/sweeps.ts";

export const PUT = withRoute(
  async ({ db, params, body, actor }) => {
    const { version, ...terms } = body;
    const own = await ownAccountNumbers(await getBankClient());
    return { sweep: await editSweep(db, actor, params.sweepId, version, terms, own) };
  },
  { params: SweepParams, permission: "transfers.create", body: EditSweepRequest, response: SweepResponse },
);

export const DELETE = withRoute(
  async ({ db, params, actor }) => {
    await setSweepStatus(db, actor, params.sweepId, "delete");
    return new Response(null, { status: 204 });
  },
  { params: SweepParams, permission: "transfers.create" },
);
