// /alerts: balance-alert rules per account (alerts.read to see, alerts.write to change).
import type { Metadata } from "next";
import { AlertRules } from "@/components/alerts/alert-rules.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Balance alerts · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function AlertsPage() {
  const user = await pageUser("/alerts");
  if (!hasPermission(user.role, "alerts.read"))
    return <Refusal title="Balance alerts">Your role cannot see balance alerts.</Refusal>;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Balance alerts</h1>
        <p className="mt-1 text-sm text-slate-700">
          One alert per crossing: a line fires when the available balance crosses it and re-arms when the
          balance comes back.
        </p>
      </div>
      <AlertRules canWrite={hasPermission(user.role, "alerts.write")} />
    </div>
  );
}
