// GET /api/drafts?status=open|all - drafts waiting for release, newest first (DraftListResponse).
import { withRoute } from "@/lib/api/route.ts";
import { DraftListQuery, DraftListResponse } from "@/lib/dashboard-api/wires.ts";
import { listDrafts } from "@/lib/payments/drafts.ts";

export const GET = withRoute(
  async ({ db, query }) => ({ drafts: await listDrafts(db, { open: query.status === "open" }) }),
  { permission: "wires.create", query: DraftListQuery, response: DraftListResponse },
);
