// CSV export of the audit log (through the one CSV writer, csv.ts): one line per entry, newest first.
import type { AuditEntry } from "../dashboard-api/admin.ts";
import { csvDocument } from "./csv.ts";

export const AUDIT_CSV_COLUMNS = ["When (UTC)", "Who", "Action", "Target", "Result", "IP", "Detail"] as const;

export function auditToCsv(entries: readonly AuditEntry[]): string {
  return csvDocument(
    AUDIT_CSV_COLUMNS,
    entries.map((e) => [
      e.at,
      e.actorEmail,
      e.action,
      e.target,
      e.result,
      e.ip,
      e.detail ? JSON.stringify(e.detail) : "",
    ]),
  );
}
