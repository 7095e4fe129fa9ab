import { AccountsSkeleton } from "@/components/accounts/accounts-skeleton.tsx";

export default function Loading() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Accounts and balances</h1>
      <AccountsSkeleton />
    </div>
  );
}
