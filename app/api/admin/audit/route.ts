// GET /api/admin/audit - audit log entries, newest first, filtered by who, action and UTC days (AuditResponse); read-only by design
import { withRoute } from "@/lib/api/route.ts";
import { readAudit } from "@/lib/auth/audit.ts";
import { AuditQuery, AuditResponse } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(
  async ({ db, query }): Promise<AuditResponse> => ({ entries: await readAudit(db, 200, query) }),
  {
    permission: "audit.read",
    query: AuditQuery,
    response: AuditResponse,
  },
);
