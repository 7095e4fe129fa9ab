// CSV export of the audit log (RFC 4180, as the history export): one line per entry, newest first.
import type { AuditEntry } from "../dashboard-api/admin.ts";
import { csvLine, neutralizeFormula } from "./csv.ts";

export const AUDIT_CSV_COLUMNS = ["When (UTC)", "Who", "Action", "Target", "Result", "IP", "Detail"] as const;

export function auditToCsv(entries: readonly AuditEntry[]): string {
  const lines = [csvLine(AUDIT_CSV_COLUMNS)];
  for (const e of entries) {
    lines.push(
      csvLine(
        [
          e.at,
          e.actorEmail ?? "",
          e.action,
          e.target ?? "",
          e.result,
          e.ip ?? "",
          e.detail ? JSON.stringify(e.detail) : "",
        ].map(neutralizeFormula),
      ),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
