// /admin/integration-tokens: the tokens an ERP fetches statements with (settings.manage): each with
// its accounts, when and from where it was last used, and Revoke; a new one is shown once.
import type { Metadata } from "next";
import { IntegrationTokensAdmin } from "@/components/admin/integration-tokens-admin.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { accountNames } from "@/lib/accounts/views.ts";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { listIntegrationTokens } from "@/lib/integration/tokens.ts";

export const metadata: Metadata = { title: "Integration tokens · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function AdminIntegrationTokensPage() {
  const user = await pageUser("/admin/integration-tokens");
  if (!hasPermission(user.role, "settings.manage"))
    return <Refusal title="Integration tokens">Only administrators can manage integration tokens.</Refusal>;
  const tokens = await listIntegrationTokens(await getDashboardDb());
  const accounts = await getBankClient()
    .then((bank) => accountNames(bank))
    .then((names) => [...names].map(([accountNumber, name]) => ({ accountNumber, name })))
    .catch(() => null);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold text-slate-900">Integration tokens</h1>
        <nav aria-label="Administration" className="flex gap-4 text-sm font-medium">
          <a href="/admin/users" className="text-blue-800 underline">
            Users
          </a>
          <a href="/admin/audit" className="text-blue-800 underline">
            Audit log
          </a>
        </nav>
      </div>
      <p className="text-sm text-slate-600">
        A token lets an ERP fetch statements and history of the accounts it lists, with{" "}
        <code>Authorization: Bearer</code>, without a person. It only reads: it never moves money and never
        reads users or settings. Creating and revoking are recorded in the audit log.
      </p>
      <IntegrationTokensAdmin initial={tokens} accounts={accounts} />
    </div>
  );
}
