// GET /api/admin/audit - the latest audit log entries, newest first (AuditResponse); read-only by design
import { withRoute } from "@/lib/api/route";
import { readAudit } from "@/lib/auth/audit";
import { AuditResponse } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(
  async ({ db }): Promise<AuditResponse> => ({ entries: await readAudit(db, 200) }),
  {
    permission: "audit.read",
    response: AuditResponse,
  },
);
