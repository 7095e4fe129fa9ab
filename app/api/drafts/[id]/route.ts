// GET /api/drafts/[id] - one draft (DraftResponse); PUT - prepares a pending wire draft again with
// new details (the editor becomes its preparer; body: the wire form plus the version seen).
import { z } from "zod";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { DraftResponse, WireDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { settleQueuedDrafts } from "@/lib/payments/draft-settlement.ts";
import { getDraft } from "@/lib/payments/drafts.ts";
import { withPayeeChanges } from "@/lib/payments/payee-changes.ts";
import { changeWireDraft } from "@/lib/payments/wires.ts";
import { notFound } from "@/lib/route-kit/errors.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db, params }) => {
    await settleQueuedDrafts(db, getBankClient);
    const draft = await getDraft(db, params.id);
    if (!draft) throw notFound("No such draft.");
    const [shown] = await withPayeeChanges(db, [draft]);
    return { draft: shown };
  },
  { params: IdParams, permission: "wires.create", response: DraftResponse },
);

const changeBody = z.object({ version: z.number().int().min(1), wire: WireDraftRequest });

export const PUT = withRoute(
  async ({ db, params, body, actor }) => {
    const existing = await getDraft(db, params.id);
    if (existing?.kind !== "wire") throw notFound("No such wire draft.");
    return {
      draft: await changeWireDraft(db, actor, params.id, body.version, body.wire),
    };
  },
  { params: IdParams, permission: "wires.create", body: changeBody, response: DraftResponse },
);
