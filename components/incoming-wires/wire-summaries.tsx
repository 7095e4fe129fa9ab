"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { AccountOptions } from "@/components/accounts/account-options.tsx";
import { CardTable } from "@/components/incoming-wires/card-table.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { Money } from "@/components/ui/money.tsx";
import { LoadingRegion, Skeleton } from "@/components/ui/skeleton.tsx";
import { Td } from "@/components/ui/table.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { isIsoDay } from "@/lib/bank-api/dates.ts";
import { ApiError, apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { WireSummariesResponse } from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { ALL_ACCOUNTS } from "@/lib/form-rules/send-money-fields.ts";
import { formatDay } from "@/lib/format/dates.ts";
import { paymentStatusWords } from "@/lib/format/status-words.ts";

export interface WireSummaryFilter {
  accountNumber: string;
  date: string;
  direction: "I" | "O";
  uniqueId: string;
}

const DIRECTIONS = { I: "Incoming", O: "Outgoing" } as const;
const SUMMARY_HEADERS = [
  { label: "Transaction" },
  { label: "Amount", right: true },
  { label: "Originator" },
  { label: "Beneficiary" },
  { label: "Sending bank" },
  { label: "Information" },
  { label: "IMAD" },
  { label: "Status" },
];

function toSearch(f: Partial<WireSummaryFilter>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  return q.toString();
}

/**
 * E-wire summaries by account, day and direction (the filter lives in the URL, so a view can be
 * shared and reloaded), or the one summary of a history item when the link carries its UniqueId.
 */
export function WireSummaries({ filter }: { filter: WireSummaryFilter }) {
  const router = useRouter();
  const accounts = useQuery(accountsQuery());
  const [account, setAccount] = useState(filter.accountNumber);
  const [date, setDate] = useState(filter.date);
  const [direction, setDirection] = useState<"I" | "O">(filter.direction);
  const [dateError, setDateError] = useState<string | undefined>();

  // Every account unless the address names one: the page opens on whatever moved that day.
  const chosenAccount = filter.accountNumber || ALL_ACCOUNTS;
  const accountName = (n: string) => accounts.data?.accounts.find((a) => a.accountNumber === n)?.name;
  const params: Record<string, string> = filter.uniqueId
    ? { uniqueId: filter.uniqueId }
    : { accountNumber: chosenAccount, date: filter.date, direction: filter.direction };
  const summaries = useQuery({
    queryKey: queryKeys.wireSummaries(params),
    queryFn: ({ signal }) =>
      apiFetch<typeof WireSummariesResponse>(`/api/wire-summaries?${toSearch(params)}`, { signal }),
    enabled: !!filter.uniqueId || !!chosenAccount,
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!isIsoDay(date)) {
      setDateError("Enter a date as YYYY-MM-DD.");
      return;
    }
    setDateError(undefined);
    router.push(`/wire-summaries?${toSearch({ accountNumber: account || chosenAccount, date, direction })}`);
  };

  const caption = filter.uniqueId
    ? "The e-wire summary of one transaction"
    : `${DIRECTIONS[filter.direction]} wires of ${chosenAccount === ALL_ACCOUNTS ? "every account" : chosenAccount} on ${formatDay(filter.date)}`;
  const list = summaries.data?.summaries ?? [];

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Wire summaries</h1>
        <p className="mt-1 text-sm text-slate-600">
          The bank's e-wire summaries of settled wires: one per account side, by day and direction.
        </p>
      </div>

      <Card aria-labelledby="summary-filter">
        <CardHeader id="summary-filter" title="Find summaries" />
        <form
          onSubmit={submit}
          noValidate
          className="grid gap-4 px-5 py-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
        >
          <Select
            label="Account"
            value={account || chosenAccount}
            onChange={(e) => setAccount(e.target.value)}
          >
            <option value={ALL_ACCOUNTS}>All accounts</option>
            <AccountOptions accounts={accounts.data?.accounts ?? []} />
          </Select>
          <Input
            label="Date"
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
            error={dateError}
          />
          <Select
            label="Direction"
            value={direction}
            onChange={(e) => setDirection(e.target.value as "I" | "O")}
          >
            <option value="I">Incoming</option>
            <option value="O">Outgoing</option>
          </Select>
          <Button type="submit">Show summaries</Button>
        </form>
      </Card>

      <Card aria-labelledby="summary-results">
        <CardHeader
          id="summary-results"
          title={filter.uniqueId ? "Summary of the transaction" : "Summaries"}
          description={caption}
        />
        {summaries.isPending && summaries.fetchStatus !== "idle" ? (
          <LoadingRegion label="Loading wire summaries" className="space-y-2 p-5">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </LoadingRegion>
        ) : summaries.isError ? (
          <div className="p-5">
            <ErrorState
              title="The summaries could not be read"
              message={
                summaries.error instanceof ApiError && summaries.error.fields.length
                  ? summaries.error.fields.map((f) => `${f.field} ${f.message}`).join("; ")
                  : summaries.error.message
              }
              onRetry={() => summaries.refetch()}
              retrying={summaries.isFetching}
            />
          </div>
        ) : list.length === 0 ? (
          <EmptyState title="No wire summaries">
            {summaries.data?.notice ??
              `The bank has no settled wires for ${chosenAccount === ALL_ACCOUNTS ? "any account" : "this account"} on this day in this direction.`}
          </EmptyState>
        ) : (
          <CardTable caption={caption} headers={SUMMARY_HEADERS} className="min-w-[64rem]">
            {list.map((s) => (
              <tr key={`${s.transactionNumber}-${s.direction}`}>
                <Td className="font-mono text-xs">
                  {s.transactionNumber}
                  <span className="block font-sans text-slate-600">
                    {DIRECTIONS[s.direction as "I" | "O"] ?? s.direction}
                    {s.fedwireSubType && s.fedwireSubType !== "00" ? ` · sub-type ${s.fedwireSubType}` : ""}
                  </span>
                  {chosenAccount === ALL_ACCOUNTS && s.accountNumber ? (
                    <span className="block font-sans text-slate-600">
                      {accountName(s.accountNumber) ?? "Account"} · {s.accountNumber}
                    </span>
                  ) : null}
                </Td>
                <Td className="text-right font-semibold whitespace-nowrap">
                  <Money cents={s.amountCents} />
                </Td>
                <Td>
                  {s.originatorName}
                  <span className="block text-xs text-slate-600 tabular-nums">{s.originatorId}</span>
                </Td>
                <Td>
                  {s.beneficiaryName}
                  <span className="block text-xs text-slate-600 tabular-nums">{s.beneficiaryId}</span>
                </Td>
                <Td>
                  {s.sendingBankName}
                  <span className="block text-xs text-slate-600 tabular-nums">{s.sendingBankId}</span>
                </Td>
                <Td className="text-xs">{s.info.join(" ") || "—"}</Td>
                <Td className="font-mono text-xs break-all">{s.imad}</Td>
                <Td>
                  <Badge tone={paymentStatusWords(s.status).tone}>{paymentStatusWords(s.status).word}</Badge>
                </Td>
              </tr>
            ))}
          </CardTable>
        )}
      </Card>
    </div>
  );
}
