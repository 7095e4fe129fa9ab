// GET /api/drafts?status=open|all - drafts waiting for release, newest first (DraftListResponse).
import { withRoute } from "@/lib/api/route";
import { DraftListQuery, DraftListResponse } from "@/lib/dashboard-api/wires";
import { listDrafts } from "@/lib/payments/drafts";

export const GET = withRoute(
  async ({ db, query }) => ({ drafts: await listDrafts(db, { open: query.status === "open" }) }),
  { permission: "wires.create", query: DraftListQuery, response: DraftListResponse },
);
