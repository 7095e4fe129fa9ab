// GET /api/admin/audit/export - the filtered audit log as a CSV download (up to 10,000 entries)

import { readAudit } from "@/lib/audit/log.ts";
import { config } from "@/lib/config.ts";
import { AuditQuery } from "@/lib/dashboard-api/index.ts";
import { auditToCsv } from "@/lib/format/audit-csv.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

const AUDIT_EXPORT_LIMIT = 10_000;

export const GET = withRoute(
  async ({ db, query }) => {
    const entries = await readAudit(db, AUDIT_EXPORT_LIMIT, { ...query, timeZone: config().timeZone });
    const day = new Date().toISOString().slice(0, 10);
    return new Response(auditToCsv(entries), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="audit-log-${day}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
  { permission: "audit.read", query: AuditQuery },
);
