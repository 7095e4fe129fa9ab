"use client";
import { useQuery } from "@tanstack/react-query";
import { AccountCard } from "@/components/accounts/account-card.tsx";
import { AccountsSkeleton } from "@/components/accounts/accounts-skeleton.tsx";
import { MorningCheck } from "@/components/accounts/morning-check.tsx";
import { TotalsCard } from "@/components/accounts/totals-card.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { Section } from "@/components/ui/section.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { formatInstant } from "@/lib/format/dates.ts";

/** The accounts page once its code has loaded (see AccountsLoader). */
export function AccountsView() {
  const { data, error, isPending, refetch, isRefetching } = useQuery(accountsQuery());
  const timeZone = useBusinessTimeZone();

  if (isPending) return <AccountsSkeleton />;
  if (error)
    return (
      <ErrorState
        title="Accounts could not be loaded"
        message={error.message}
        onRetry={() => void refetch()}
        retrying={isRefetching}
      />
    );
  if (!data.accounts.length)
    return (
      <EmptyState title="No accounts yet">
        The bank reports no accounts for this organisation. Accounts appear here as soon as they are opened.
      </EmptyState>
    );

  return (
    <div className="flex flex-col gap-8">
      <p className="-mt-4 text-sm text-slate-600">As of {formatInstant(data.asOf, timeZone)}</p>
      <TotalsCard data={data} />
      <MorningCheck accounts={data.accounts} />
      <Section
        id="account-list-heading"
        title="Accounts"
        headingClassName="mb-4 text-lg font-semibold text-slate-900"
      >
        <ul className="grid gap-5 md:grid-cols-2 xl:grid-cols-3">
          {data.accounts.map((a) => (
            <li key={a.accountNumber} className="flex">
              <div className="flex w-full flex-col [&>article]:flex-1">
                <AccountCard account={a} />
              </div>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
