"use client";
// The morning check: per account and in total, the change since the previous business day's
// close and the money in and out today (GET /api/accounts/morning). On a phone each account is
// one row: its name with today's in and out below, the change on the right.
import { useQuery } from "@tanstack/react-query";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Stat } from "@/components/ui/stat.tsx";
import { Table, Td, Th, Tr } from "@/components/ui/table.tsx";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { AccountSummary, MorningCheckResponse } from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { formatDay } from "@/lib/format/dates.ts";
import { maskAccountNumber } from "@/lib/format/money.ts";
import { countOf } from "@/lib/format/status-words.ts";

/** A change in words and sign: "+$1.00", "−$2.00", "No change". */
function Change({ cents, className }: { cents: number; className?: string }) {
  if (cents === 0) return <span className={className}>No change</span>;
  return <Money cents={cents} direction={cents > 0 ? "credit" : "debit"} className={className} />;
}

const FIGURE = "text-lg font-semibold sm:text-xl";

export function MorningCheck({ accounts }: { accounts: AccountSummary[] }) {
  const q = useQuery({
    queryKey: queryKeys.morningCheck(),
    queryFn: ({ signal }) => apiFetch<typeof MorningCheckResponse>("/api/accounts/morning", { signal }),
  });
  const name = (n: string) => accounts.find((a) => a.accountNumber === n)?.name ?? "Account";
  const d = q.data;
  return (
    <Card aria-labelledby="morning-heading" aria-busy={q.isPending || undefined}>
      <CardHeader
        id="morning-heading"
        title="Since the last close"
        description={
          d
            ? `Change since ${formatDay(d.since)}'s close, and money in and out today (${formatDay(d.today)}).`
            : q.isError
              ? "The history could not be read: the change since the last close is not shown."
              : "Reading today's history…"
        }
      />
      {d ? (
        <>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 border-b border-slate-100 px-5 py-4 text-sm sm:grid-cols-3">
            <Stat
              label="Change, all accounts"
              className="col-span-2 sm:col-span-1"
              valueClassName="text-xl font-semibold"
            >
              <Change cents={d.totals.changeCents} />
            </Stat>
            <Stat label="In today" valueClassName={FIGURE}>
              <Money cents={d.totals.inCents} />
            </Stat>
            <Stat label="Out today" valueClassName={FIGURE}>
              <Money cents={d.totals.outCents} />
            </Stat>
          </dl>
          <Table caption={`Change since ${formatDay(d.since)}'s close, by account`} captionHidden>
            <thead>
              <Tr>
                <Th>Account</Th>
                <Th className="hidden text-right md:table-cell">In today</Th>
                <Th className="hidden text-right md:table-cell">Out today</Th>
                <Th className="text-right">Since close</Th>
              </Tr>
            </thead>
            <tbody>
              {d.accounts.map((a) => (
                <Tr key={a.accountNumber}>
                  <Td>
                    <span className="font-medium">{name(a.accountNumber)}</span>{" "}
                    <span className="text-slate-600 tabular-nums">{maskAccountNumber(a.accountNumber)}</span>
                    <span className="block text-xs text-slate-600 md:hidden">
                      In <Money cents={a.inCents} /> ({countOf(a.inCount, "entry", "entries")}) · Out{" "}
                      <Money cents={a.outCents} /> ({countOf(a.outCount, "entry", "entries")})
                    </span>
                  </Td>
                  <Td className="hidden text-right md:table-cell">
                    <Money cents={a.inCents} />
                    <span className="block text-xs text-slate-600">
                      {countOf(a.inCount, "entry", "entries")}
                    </span>
                  </Td>
                  <Td className="hidden text-right md:table-cell">
                    <Money cents={a.outCents} />
                    <span className="block text-xs text-slate-600">
                      {countOf(a.outCount, "entry", "entries")}
                    </span>
                  </Td>
                  <Td className="text-right whitespace-nowrap">
                    <Change cents={a.changeCents} className="font-semibold" />
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
          {d.complete ? null : (
            <p className="px-5 py-3 text-xs text-slate-600">
              A day held more entries than the bank returns at once: these figures may be incomplete.
            </p>
          )}
        </>
      ) : null}
    </Card>
  );
}
