"use client";
// The inbox's warnings days ahead: each account whose projected balance falls below zero or below
// its low alert line within 30 business days, the day, and the payments out that lead there, with
// a link to the account's balance ahead. Read apart from the inbox's items (it asks the bank for
// every balance), so the list of what waits never waits on it.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ShortfallCauses, shortfallLine } from "@/components/accounts/balance-ahead.tsx";
import { Notice, NoticeCard } from "@/components/ui/notice-card.tsx";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { ShortfallsResponse } from "@/lib/dashboard-api/schedules.ts";
import { dayInWords } from "@/lib/format/dates.ts";
import { formatUsd } from "@/lib/format/money.ts";

export function ShortfallWarnings() {
  const q = useQuery({
    queryKey: queryKeys.inboxShortfalls(),
    queryFn: () => apiFetch<typeof ShortfallsResponse>("/api/inbox/shortfalls"),
    refetchInterval: 60_000,
  });
  if (!q.data?.shortfalls.length) return null;
  return (
    <NoticeCard
      id="shortfalls-heading"
      title="Balances that fall short ahead"
      description="From what is scheduled and waiting over the next 30 business days. Fund the account, or move or cancel a payment, before the day."
    >
      {q.data.shortfalls.map((s) => (
        <Notice key={s.accountNumber} data-testid="shortfall" tone="rose">
          <p>
            <span className="font-medium">{s.accountName}</span> is projected {shortfallLine(s)} on{" "}
            <span className="font-medium">{dayInWords(s.day)}</span>: {formatUsd(s.projectedCents)}.{" "}
            <Link
              className="text-brand-700 underline"
              href={`/accounts/${encodeURIComponent(s.accountNumber)}#ahead-heading`}
            >
              Open the balance ahead
            </Link>
          </p>
          <ShortfallCauses shortfall={s} />
        </Notice>
      ))}
    </NoticeCard>
  );
}
