// GET /api/admin/audit - audit log entries, newest first, filtered by who, action and days in the dashboard's time zone (AuditResponse); read-only by design

import { readAudit } from "@/lib/audit/log.ts";
import { config } from "@/lib/config.ts";
import { AuditQuery, AuditResponse } from "@/lib/dashboard-api/index.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db, query }): Promise<AuditResponse> => ({
    entries: await readAudit(db, 200, { ...query, timeZone: config().timeZone }),
  }),
  {
    permission: "audit.read",
    query: AuditQuery,
    response: AuditResponse,
  },
);
