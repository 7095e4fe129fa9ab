// GET /api/drafts?status=open|all - drafts waiting for release, newest first (DraftListResponse).
// Wires queued in the bank's backup log are settled against the bank first; each wire carries its
// beneficiary's recent payee changes for the release dialog.

import { getBankClient } from "@/lib/bank-client/index.ts";
import { DraftListQuery, DraftListResponse } from "@/lib/dashboard-api/wires.ts";
import { settleQueuedDrafts } from "@/lib/payments/draft-settlement.ts";
import { listDrafts } from "@/lib/payments/drafts.ts";
import { withPayeeChanges } from "@/lib/payments/payee-changes.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db, query }) => {
    await settleQueuedDrafts(db, getBankClient);
    return { drafts: await withPayeeChanges(db, await listDrafts(db, { open: query.status === "open" })) };
  },
  { permission: "wires.create", query: DraftListQuery, response: DraftListResponse },
);
