"use client";
// The balance ahead on an account page: the next 30 business days' projected available balance as
// a line (read day by day by pointer or keyboard), the first day below zero or below the low alert
// line said in words with the payments behind it, and each day with payments opened to them, each
// kind apart with how sure it is. A list, not a wide table, so a phone reads it without scrolling.
import { useQuery } from "@tanstack/react-query";
import { TrendChart } from "@/components/accounts/balance-trend.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { apiFetch, failureMessage } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { AheadShortfallView, BalanceAheadResponse } from "@/lib/dashboard-api/schedules.ts";
import { dayInWords } from "@/lib/format/dates.ts";
import { formatUsd } from "@/lib/format/money.ts";
import { AHEAD_KIND_WORDS, AHEAD_KINDS } from "@/lib/schedules/balance-ahead.ts";

/** "below zero" or "below the alert line of $X": what a shortfall falls under, in words. */
export function shortfallLine(s: Pick<AheadShortfallView, "line" | "lineCents">): string {
  return s.line === "zero" ? "below zero" : `below the alert line of ${formatUsd(s.lineCents)}`;
}

/** The payments out that lead to a shortfall, named, the largest first. */
export function ShortfallCauses({ shortfall }: { shortfall: AheadShortfallView }) {
  return (
    <ul className="mt-1 list-disc pl-5">
      {shortfall.causes.map((c) => (
        <li key={c.key}>
          {c.label}: <Money cents={c.amountCents} /> ({c.likelihood})
        </li>
      ))}
      {shortfall.moreCauses ? <li>and {shortfall.moreCauses} smaller payments</li> : null}
    </ul>
  );
}

export function BalanceAhead({ accountNumber }: { accountNumber: string }) {
  const q = useQuery({
    queryKey: queryKeys.balanceAhead(accountNumber),
    queryFn: () =>
      apiFetch<typeof BalanceAheadResponse>(`/api/accounts/${encodeURIComponent(accountNumber)}/ahead`),
  });
  const data = q.data;
  const busy = data?.days.filter((d) => d.flows.length) ?? [];
  return (
    <Panel id="ahead-heading" title="The balance ahead">
      <p className="mb-3 text-sm text-slate-600">
        The available balance projected over the next 30 business days from scheduled payments and sweeps,
        drafts waiting for approval and incoming wires not yet accepted.
      </p>
      {q.isPending ? <p className="text-sm text-slate-600">Working out the balance ahead…</p> : null}
      {q.isError ? (
        <p className="text-sm font-medium text-rose-700">
          {failureMessage(q.error, "The balance ahead could not be read.")}
        </p>
      ) : null}
      {data ? (
        <div className="flex flex-col gap-4">
          {data.notes.map((n) => (
            <p key={n} className="text-sm text-amber-800">
              {n}
            </p>
          ))}
          {data.shortfall ? (
            <div
              data-testid="ahead-shortfall"
              className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900"
            >
              <p className="font-semibold">
                Projected {shortfallLine(data.shortfall)} on {dayInWords(data.shortfall.day)}:{" "}
                {formatUsd(data.shortfall.projectedCents)}
              </p>
              <p className="mt-1">The payments out that lead there:</p>
              <ShortfallCauses shortfall={data.shortfall} />
            </div>
          ) : (
            <p data-testid="ahead-shortfall" className="text-sm text-slate-700">
              No day of the next 30 business days falls below zero
              {data.alertBelowCents !== null
                ? ` or below the alert line of ${formatUsd(data.alertBelowCents)}`
                : ""}
              .
            </p>
          )}
          <div className="h-44">
            <TrendChart
              points={data.days.map((d) => ({ day: d.day, cents: d.projectedCents }))}
              label="Day on the balance ahead"
              levels={[
                { cents: 0, label: "Zero" },
                ...(data.alertBelowCents !== null
                  ? [{ cents: data.alertBelowCents, label: "Alert line" }]
                  : []),
              ]}
            />
          </div>
          {busy.length ? (
            <ol aria-label="Days with payments ahead" className="flex flex-col gap-2">
              {busy.map((d) => (
                <li key={d.day} className="rounded-md border border-slate-200">
                  <details>
                    <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-2 text-sm">
                      <span className="font-medium text-slate-900">{dayInWords(d.day)}</span>
                      <span className="text-slate-600">
                        {d.flows.length} payment{d.flows.length === 1 ? "" : "s"}
                      </span>
                      <span className="ml-auto tabular-nums">
                        Projected <Money cents={d.projectedCents} className="font-semibold" />
                      </span>
                      {d.projectedCents < 0 ? <Badge tone="danger">Below zero</Badge> : null}
                      {d.projectedCents >= 0 &&
                      data.alertBelowCents !== null &&
                      d.projectedCents < data.alertBelowCents ? (
                        <Badge tone="warning">Below alert line</Badge>
                      ) : null}
                    </summary>
                    <div className="border-t border-slate-200 px-3 py-2 text-sm">
                      <p className="flex flex-wrap gap-x-4 gap-y-1 text-slate-700">
                        {AHEAD_KINDS.filter((k) => d.byKind[k]).map((k) => (
                          <span key={k}>
                            {AHEAD_KIND_WORDS[k]} <Money cents={d.byKind[k]} />
                          </span>
                        ))}
                      </p>
                      <ul className="mt-2 flex flex-col gap-1 text-slate-800">
                        {d.flows.map((f) => (
                          <li key={f.key}>
                            {f.label}: <Money cents={f.amountCents} />{" "}
                            <span className="text-slate-600">({f.likelihood})</span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  </details>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-slate-700">
              Nothing is scheduled or waiting: the balance stays at {formatUsd(data.availableCents)}.
            </p>
          )}
        </div>
      ) : null}
    </Panel>
  );
}
