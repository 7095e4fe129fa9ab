// /statements: download BAI2, camt.053, camt.052 or CSV for chosen accounts and a range, with a
// sentence on what each format is for. The accounts come from the bank; the range presets from
// the bank's business day. Below, the daily BAI2 subscriptions and the files they delivered (90 days).
import type { Metadata } from "next";
import { StatementSubscriptions } from "@/components/statements/statement-subscriptions.tsx";
import { StatementsForm } from "@/components/statements/statements-form.tsx";
import { Card } from "@/components/ui/card.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { accountNames } from "@/lib/accounts/views.ts";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { listUsers } from "@/lib/auth/users.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { bankToday } from "@/lib/route-kit/params.ts";
import { listDeliveries, listSubscriptions } from "@/lib/statements/subscriptions.ts";

export const metadata: Metadata = { title: "Statements" };
export const dynamic = "force-dynamic";

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const user = await pageUser("/statements");
  const db = await getDashboardDb();
  const canManage = hasPermission(user.role, "settings.manage");
  const subscriptions = { subscriptions: await listSubscriptions(db), deliveries: await listDeliveries(db) };
  const people = canManage
    ? (await listUsers(db)).filter((u) => !u.disabled).map((u) => u.email.toLowerCase())
    : [];
  const preselected = [(await searchParams).account ?? []].flat();
  const accounts = await getBankClient()
    .then((bank) => accountNames(bank))
    .then((names) => [...names].map(([accountNumber, name]) => ({ accountNumber, name })))
    .catch(() => null);
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Statements</h1>
        <p className="mt-1 text-sm text-slate-600">
          Statements your ERP imports, built from the bank's own history: choose accounts, a range and a
          format.
        </p>
      </div>
      {accounts ? (
        <>
          <StatementsForm accounts={accounts} today={await bankToday()} preselected={preselected} />
          <StatementSubscriptions
            initial={subscriptions}
            accounts={accounts}
            people={people}
            canManage={canManage}
          />
        </>
      ) : (
        <Card>
          <ErrorState
            title="The accounts could not be read"
            message="The bank did not answer. Reload the page to try again."
          />
        </Card>
      )}
    </div>
  );
}
