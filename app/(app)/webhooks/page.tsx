// /webhooks: the bank's balance-change webhooks of every account (alerts.read to see,
// alerts.write to register and delete).
import type { Metadata } from "next";
import { WebhooksManager } from "@/components/alerts/webhooks-manager.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Webhooks · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const user = await pageUser("/webhooks");
  if (!hasPermission(user.role, "alerts.read"))
    return <Refusal title="Webhooks">Your role cannot see webhooks.</Refusal>;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Webhooks</h1>
        <p className="mt-1 text-sm text-slate-700">
          Where the bank reports balance changes of your accounts. Every change here is recorded in the audit
          log.
        </p>
      </div>
      <WebhooksManager canWrite={hasPermission(user.role, "alerts.write")} />
    </div>
  );
}
