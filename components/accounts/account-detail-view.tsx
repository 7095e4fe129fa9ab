"use client";
import { useQuery } from "@tanstack/react-query";
import { Suspense } from "react";
import { HistoryPanel } from "@/components/history/history-panel.tsx";
import { HistorySkeletonRows } from "@/components/history/history-skeleton.tsx";
import { StatusPill } from "@/components/ui/badge.tsx";
import { Card, CardBody, CardHeader } from "@/components/ui/card.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { Money } from "@/components/ui/money.tsx";
import { accountQuery } from "@/hooks/use-account-queries.ts";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";
import { formatDay, formatInstant } from "@/lib/format/dates.ts";
import { AccountDetailSkeleton } from "./account-detail-skeleton.tsx";
import { AccountNumber } from "./account-number.tsx";
import { AccountTypeBadge } from "./account-type-badge.tsx";
import { AccountsPage, BackLink } from "./accounts-page.tsx";
import { BalanceRecordList } from "./balance-record-list.tsx";

function Figure({ label, cents, note }: { label: string; cents: number | null; note?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-5 py-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900">
        {cents === null ? (
          <span className="text-base font-normal text-slate-600">Not available</span>
        ) : (
          <Money cents={cents} />
        )}
      </dd>
      {note ? <dd className="mt-1 text-xs text-slate-600">{note}</dd> : null}
    </div>
  );
}

/** One account's page once its code has loaded (see AccountDetailLoader). */
export function AccountDetailView({ accountNumber }: { accountNumber: string }) {
  const { data, error, isPending, refetch, isRefetching } = useQuery(accountQuery(accountNumber));

  if (isPending) return <AccountDetailSkeleton />;
  if (error) {
    const notFound = error instanceof ApiError && (error.status === 404 || error.code === "not_found");
    return (
      <AccountsPage heading={`Account ${accountNumber}`} back>
        <ErrorState
          title={notFound ? "Account not found" : "This account could not be loaded"}
          message={notFound ? "No account with this number belongs to your organisation." : error.message}
          onRetry={notFound ? undefined : () => void refetch()}
          retrying={isRefetching}
        />
      </AccountsPage>
    );
  }

  const { account, balance, cashManager } = data;
  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-2">
        <BackLink />
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{account.name}</h1>
          <AccountTypeBadge type={account.type} />
          <StatusPill status={account.status} />
        </div>
        <p className="text-sm text-slate-600">
          {[account.productDescription, ...account.titleLines].filter(Boolean).join(" · ")}
        </p>
        <AccountNumber accountNumber={account.accountNumber} />
        <p className="text-xs text-slate-600">As of {formatInstant(data.asOf)}</p>
      </div>

      <section aria-labelledby="summary-heading">
        <h2 id="summary-heading" className="sr-only">
          Balances
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Figure label="Available balance" cents={account.availableCents} />
          <Figure label="Current balance" cents={account.currentCents} />
          <Figure label="Holds" cents={account.holdsCents} />
          <Figure
            label="Cash-manager balance"
            cents={cashManager ? cashManager.availableCents : null}
            note={
              cashManager
                ? `Cash manager since ${formatDay(cashManager.openDate)}`
                : "Not enrolled in cash management"
            }
          />
        </dl>
      </section>

      <Suspense fallback={<HistorySkeletonRows />}>
        <HistoryPanel accountNumber={account.accountNumber} />
      </Suspense>

      <Card aria-labelledby="balance-record-heading">
        <CardHeader
          id="balance-record-heading"
          title="Balance record"
          description="Every field the bank reports for this account, with the bank's field name."
        />
        <CardBody>
          <BalanceRecordList record={balance} />
        </CardBody>
      </Card>
    </div>
  );
}
