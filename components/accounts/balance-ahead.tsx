"use client";
// The balance ahead on an account page: the next 30 business days' projected available balance,
// each kind of money apart (scheduled, sweeps, waiting for approval, not yet accepted), a day below
// zero flagged in words, and each day opened to the payments behind it.
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { Table, Td, Th, Tr } from "@/components/ui/table.tsx";
import { dayInWords } from "@/lib/calendar/recurrence.ts";
import { apiFetch, failureMessage } from "@/lib/dashboard-api/fetch.ts";
import type { BalanceAheadResponse } from "@/lib/dashboard-api/schedules.ts";
import { AHEAD_LIKELIHOOD } from "@/lib/schedules/balance-ahead.ts";

const signed = (cents: number) => (cents ? <Money cents={cents} /> : "—");

export function BalanceAhead({ accountNumber }: { accountNumber: string }) {
  const q = useQuery({
    queryKey: ["balance-ahead", accountNumber],
    queryFn: () =>
      apiFetch<typeof BalanceAheadResponse>(`/api/accounts/${encodeURIComponent(accountNumber)}/ahead`),
  });
  return (
    <Panel id="ahead-heading" title="The balance ahead">
      <p className="mb-3 text-sm text-slate-600">
        The available balance projected over the next 30 business days: scheduled payments and sweeps
        (scheduled), drafts waiting for approval, and incoming wires not yet accepted, each apart. Open a day
        to see the payments behind it.
      </p>
      {q.isPending ? <p className="text-sm text-slate-600">Working out the balance ahead…</p> : null}
      {q.isError ? (
        <p className="text-sm font-medium text-rose-700">
          {failureMessage(q.error, "The balance ahead could not be read.")}
        </p>
      ) : null}
      {q.data ? (
        <>
          {q.data.notes.map((n) => (
            <p key={n} className="mb-2 text-sm text-amber-800">
              {n}
            </p>
          ))}
          <Table caption={`Projected available balance of ${accountNumber}`} captionHidden scrollable>
            <thead>
              <tr>
                <Th>Day</Th>
                <Th className="text-right">Scheduled</Th>
                <Th className="text-right">Sweeps</Th>
                <Th className="text-right">Waiting for approval</Th>
                <Th className="text-right">Not yet accepted</Th>
                <Th className="text-right">Projected</Th>
                <Th>Payments</Th>
              </tr>
            </thead>
            <tbody>
              {q.data.days.map((d) => (
                <Tr key={d.day}>
                  <Td>{dayInWords(d.day)}</Td>
                  <Td className="text-right">{signed(d.byKind.scheduled)}</Td>
                  <Td className="text-right">{signed(d.byKind.sweep)}</Td>
                  <Td className="text-right">{signed(d.byKind.draft)}</Td>
                  <Td className="text-right">{signed(d.byKind.incoming_wire)}</Td>
                  <Td className="text-right">
                    <Money cents={d.projectedCents} />{" "}
                    {d.projectedCents < 0 ? <Badge tone="danger">Below zero</Badge> : null}
                  </Td>
                  <Td>
                    {d.flows.length ? (
                      <details>
                        <summary className="cursor-pointer text-sm">
                          {d.flows.length} payment{d.flows.length === 1 ? "" : "s"}
                        </summary>
                        <ul className="mt-1 text-xs text-slate-700">
                          {d.flows.map((f) => (
                            <li key={f.key}>
                              {f.label}: <Money cents={f.amountCents} /> ({AHEAD_LIKELIHOOD[f.kind]})
                            </li>
                          ))}
                        </ul>
                      </details>
                    ) : (
                      "—"
                    )}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        </>
      ) : null}
    </Panel>
  );
}
