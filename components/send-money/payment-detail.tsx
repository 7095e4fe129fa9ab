"use client";
// One payment with every field of its record, in the specification's groups, and the account
// history entries that carry its id (after settlement).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card, CardBody, CardHeader, TitledCard } from "@/components/ui/card.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { Money } from "@/components/ui/money.tsx";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { PaymentDetailResponse } from "@/lib/dashboard-api/payments.ts";
import { formatDay } from "@/lib/format/dates.ts";
import { PAYMENT_FIELD_GROUPS } from "@/lib/format/payment-fields.ts";

export function PaymentDetail({ id, account }: { id: string; account: string }) {
  const q = useQuery({
    queryKey: ["payments", "detail", account, id],
    queryFn: ({ signal }) =>
      apiFetch<typeof PaymentDetailResponse>(
        `/api/payments/${encodeURIComponent(id)}?account=${encodeURIComponent(account)}`,
        { signal },
      ),
  });
  if (q.isError)
    return <ErrorState message={q.error.message} onRetry={() => void q.refetch()} retrying={q.isFetching} />;
  if (!q.data) return <p className="text-sm text-slate-600">Loading the payment…</p>;
  const { record, amountCents, history } = q.data;
  const fields = record as unknown as Record<string, string | number>;
  return (
    <div className="flex flex-col gap-4">
      <TitledCard
        id="payment-history"
        title="In the account's history"
        description={history.length ? undefined : "Nothing yet: a wire reaches the history when it settles."}
      >
        {history.length ? (
          <CardBody>
            <ul className="flex flex-col gap-2 text-sm">
              {history.map((h) => (
                <li key={h.uniqueId} className="flex flex-wrap items-baseline gap-x-3">
                  <span>{formatDay(h.date)}</span>
                  <Money cents={h.amountCents} direction={h.direction} />
                  <span>{h.descriptions.join(" · ")}</span>
                  <Link
                    className="font-medium text-brand-700 underline"
                    href={`/accounts/${encodeURIComponent(account)}?from=${h.date}&to=${h.date}&q=${encodeURIComponent(id)}`}
                  >
                    Open in history
                  </Link>
                </li>
              ))}
            </ul>
          </CardBody>
        ) : null}
      </TitledCard>
      <div className="grid gap-4 lg:grid-cols-2">
        {PAYMENT_FIELD_GROUPS.map((g) => (
          <Card key={g.title} aria-label={g.title}>
            <CardHeader title={g.title} level={2} />
            <CardBody>
              <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(0,16rem)_1fr]">
                {g.fields.map((f) => (
                  <div key={f} className="contents">
                    <dt className="break-all pt-1 font-mono text-xs text-slate-600 sm:pt-0">{f}</dt>
                    <dd className="break-words">
                      {f === "amount" ? <Money cents={amountCents} /> : String(fields[f] ?? "") || "—"}
                    </dd>
                  </div>
                ))}
              </dl>
            </CardBody>
          </Card>
        ))}
      </div>
    </div>
  );
}
