"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Suspense } from "react";
import { AccountNumber } from "@/components/accounts/account-number.tsx";
import { AccountTypeBadge } from "@/components/accounts/account-type-badge.tsx";
import { AccountsPage, BackLink } from "@/components/accounts/accounts-page.tsx";
import { BalanceAhead } from "@/components/accounts/balance-ahead.tsx";
import { BalanceRecordList } from "@/components/accounts/balance-record-list.tsx";
import { BalanceTrend } from "@/components/accounts/balance-trend.tsx";
import { HistoryPanel } from "@/components/history/history-panel.tsx";
import { HistorySkeletonRows } from "@/components/history/history-skeleton.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { StatusPill } from "@/components/ui/badge.tsx";
import { buttonClasses } from "@/components/ui/button.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Section } from "@/components/ui/section.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { accountQuery } from "@/hooks/use-account-queries.ts";
import { useHydrated } from "@/hooks/use-hydrated.ts";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";
import type { AccountDetailResponse } from "@/lib/dashboard-api/index.ts";
import { formatDay, formatInstant } from "@/lib/format/dates.ts";

/** One balance: the label is known before the data, the value takes the same room either way. */
function Figure({
  label,
  cents,
  loading,
  note,
}: {
  label: string;
  cents: number | null;
  loading: boolean;
  note?: string;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm sm:px-5 sm:py-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 flex h-8 items-center text-lg font-semibold text-slate-900 sm:text-2xl">
        {loading ? (
          <Skeleton className="h-6 w-32 max-w-full" />
        ) : cents === null ? (
          <span className="text-base font-normal text-slate-600">Not available</span>
        ) : (
          <Money cents={cents} />
        )}
      </dd>
      <dd className="mt-1 h-4 truncate text-xs text-slate-600">{note}</dd>
    </div>
  );
}

/** Name, badges, description, number and time of reading; placeholders of the same heights until known. */
function AccountHeading({ data }: { data: AccountDetailResponse | undefined }) {
  const timeZone = useBusinessTimeZone();
  if (!data)
    return (
      <div className="flex flex-col gap-2" aria-hidden="true">
        <BackLink />
        <div className="flex h-8 items-center">
          <Skeleton className="h-7 w-64 max-w-full" />
        </div>
        <Skeleton className="h-4 w-80 max-w-full" />
        <div className="flex h-7 items-center">
          <Skeleton className="h-4 w-40" />
        </div>
        <Skeleton className="h-3 w-48" />
      </div>
    );
  const { account } = data;
  const description = [account.productDescription, ...account.titleLines].filter(Boolean).join(" · ");
  return (
    <div className="flex flex-col gap-2">
      <BackLink />
      <div className="flex min-h-8 flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{account.name}</h1>
        <AccountTypeBadge type={account.type} />
        <StatusPill status={account.status} />
      </div>
      <p className="truncate text-sm text-slate-600" title={description}>
        {description}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <AccountNumber accountNumber={account.accountNumber} className="h-7" />
        <Link
          href={`/statements?account=${account.accountNumber}`}
          className={buttonClasses("secondary", "sm")}
        >
          Statements
        </Link>
      </div>
      <p className="h-4 text-xs text-slate-600">As of {formatInstant(data.asOf, timeZone)}</p>
    </div>
  );
}

/**
 * One account's page. The frame (balances, trend, history) is drawn at once, on the server too,
 * with placeholders the size of what they stand for, so nothing moves when the data arrives;
 * the history and the trend load beside the balances. The bank's raw balance record sits behind
 * a Details disclosure at the end.
 */
export function AccountDetailView({ accountNumber }: { accountNumber: string }) {
  const hydrated = useHydrated();
  const query = useQuery(accountQuery(accountNumber));
  // Until hydration is over, draw what the server drew (placeholders), whatever the cache holds.
  const data = hydrated ? query.data : undefined;
  const error = hydrated ? query.error : null;

  if (error) {
    const notFound = error instanceof ApiError && (error.status === 404 || error.code === "not_found");
    return (
      <AccountsPage heading={notFound ? "Account not found" : "Account"} back>
        <ErrorState
          title={notFound ? "Account not found" : "This account could not be loaded"}
          message={notFound ? "No account with this number belongs to your organisation." : error.message}
          onRetry={notFound ? undefined : () => void query.refetch()}
          retrying={query.isRefetching}
        />
      </AccountsPage>
    );
  }

  const account = data?.account;
  const cashManager = data?.cashManager;
  return (
    <div className="flex flex-col gap-6 sm:gap-8">
      {data ? null : <h1 className="sr-only">Account</h1>}
      <AccountHeading data={data} />

      <Section id="summary-heading" title="Balances" headingClassName="sr-only">
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <Figure label="Available balance" cents={account?.availableCents ?? null} loading={!data} />
          <Figure label="Current balance" cents={account?.currentCents ?? null} loading={!data} />
          <Figure label="Holds" cents={account?.holdsCents ?? null} loading={!data} />
          <Figure
            label="Cash-manager balance"
            cents={cashManager ? cashManager.availableCents : null}
            loading={!data}
            note={
              !data
                ? undefined
                : cashManager
                  ? `Cash manager since ${formatDay(cashManager.openDate)}`
                  : "Not enrolled in cash management"
            }
          />
        </dl>
      </Section>

      <BalanceTrend accountNumber={accountNumber} />

      <Suspense fallback={<HistorySkeletonRows />}>
        <HistoryPanel accountNumber={accountNumber} />
      </Suspense>

      <BalanceAhead accountNumber={accountNumber} />

      {data ? (
        <details className="group rounded-xl border border-slate-200 bg-white shadow-sm">
          <summary className="cursor-pointer list-none rounded-xl px-5 py-4 marker:hidden">
            <span className="text-base font-semibold text-slate-900">
              <span
                aria-hidden="true"
                className="mr-2 inline-block transition-transform group-open:rotate-90"
              >
                ▸
              </span>
              Details
            </span>
            <span className="mt-0.5 block text-sm text-slate-600">
              Every field of the bank's balance record, with the bank's field names.
            </span>
          </summary>
          <div className="border-t border-slate-100 px-5 py-4">
            <BalanceRecordList record={data.balance} />
          </div>
        </details>
      ) : null}
    </div>
  );
}
