// /admin/audit: the latest audit entries, newest first (audit.read). Read-only by design.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { readAudit } from "@/lib/auth/audit";
import { hasPermission } from "@/lib/auth/permissions";
import { getSessionUser } from "@/lib/auth/session";
import { config } from "@/lib/config";
import { getDashboardDb } from "@/lib/db/client";
import { formatInstant, timeZoneLabel } from "@/lib/format/dates";

export const metadata: Metadata = { title: "Audit log · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function AuditPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?callbackUrl=/admin/audit");
  if (!hasPermission(user.role, "audit.read")) {
    return (
      <p
        role="alert"
        className="mx-auto max-w-3xl rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        Only administrators can read the audit log.
      </p>
    );
  }
  const entries = await readAudit(await getDashboardDb(), 200);
  const timeZone = config().timeZone;
  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Audit log</h1>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="stack-on-phone min-w-full divide-y divide-slate-200 text-sm">
          <caption className="px-4 py-3 text-left font-semibold text-slate-900">
            Latest 200 entries, newest first
          </caption>
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                When ({timeZoneLabel(timeZone)})
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Who
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                What
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Target
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Result
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {entries.map((e) => (
              <tr key={e.id}>
                <td data-label="When" className="px-4 py-2 tabular-nums text-slate-700 sm:whitespace-nowrap">
                  {formatInstant(e.at, timeZone)}
                </td>
                <td data-label="Who" className="px-4 py-2 break-all text-slate-900">
                  {e.actorEmail ?? "—"}
                </td>
                <td data-label="What" className="px-4 py-2 font-mono text-xs text-slate-800">
                  {e.action}
                </td>
                <td data-label="Target" className="px-4 py-2 break-all text-slate-700">
                  {e.target ?? "—"}
                </td>
                <td data-label="Result" className="px-4 py-2 text-slate-900">
                  {e.result}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
