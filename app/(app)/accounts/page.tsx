import type { Metadata } from "next";
import { AccountsView } from "@/components/accounts/accounts-view.tsx";

export const metadata: Metadata = { title: "Accounts" };

export default function AccountsPage() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Accounts and balances</h1>
      <AccountsView />
    </div>
  );
}
