// GET /api/admin/changes - the changes that weaken a control and wait for a second administrator

import { pendingChanges } from "@/lib/admin/changes.ts";
import { AdminChangesResponse } from "@/lib/dashboard-api/index.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db }): Promise<AdminChangesResponse> => ({ changes: await pendingChanges(db) }),
  { permission: "changes.decide", response: AdminChangesResponse },
);
