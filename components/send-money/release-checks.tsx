"use client";
// What an approver needs to see before releasing, beside what is paid: each paying account's
// available balance and any shortfall (the bank refuses a payment larger than it; several drafts
// from one account are summed), and, for a wire, whether the wire system is down and what happens
// to the wire instead. The drafts page's release dialog shows it for one draft, the inbox's
// confirmation for every draft it releases.
import { useQuery } from "@tanstack/react-query";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { VoteEmbargoNotice } from "@/components/session/vote-embargo-notice.tsx";
import { Money } from "@/components/ui/money.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { Draft, WireSystemResponse } from "@/lib/dashboard-api/wires.ts";
import { formatInstant } from "@/lib/format/dates.ts";
import { maskAccountNumber } from "@/lib/format/money.ts";
import { countOf } from "@/lib/format/status-words.ts";

export const wireSystemQuery = () => ({
  queryKey: queryKeys.wireSystem(),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiFetch<typeof WireSystemResponse>("/api/wire-system", { signal }),
});

type Releasing = Pick<Draft, "kind" | "fromAccount" | "amountCents">;

/** The funds and wire-system facts of releasing these drafts, read fresh when the dialog opens. */
export function ReleaseChecks({ drafts }: { drafts: Releasing[] }) {
  const timeZone = useBusinessTimeZone();
  const anyWire = drafts.some((d) => d.kind === "wire");
  const accounts = useQuery({ ...accountsQuery(), refetchOnMount: "always" });
  const system = useQuery({ ...wireSystemQuery(), enabled: anyWire, refetchOnMount: "always" });
  const byAccount = new Map<string, { cents: number; count: number }>();
  for (const d of drafts) {
    const t = byAccount.get(d.fromAccount) ?? { cents: 0, count: 0 };
    byAccount.set(d.fromAccount, { cents: t.cents + d.amountCents, count: t.count + 1 });
  }
  if (!drafts.length) return null;
  return (
    <div className="flex flex-col gap-2 text-sm" data-release-checks>
      <VoteEmbargoNotice />
      {[...byAccount].map(([number, { cents, count }]) => {
        const account = accounts.data?.accounts.find((a) => a.accountNumber === number);
        const available = account?.availableCents ?? null;
        const shortfall = available !== null && cents > available ? cents - available : 0;
        return (
          <div key={number} className="flex flex-col gap-2">
            <p>
              <span className="text-slate-600">Available in </span>
              <span className="font-medium">
                {account ? `${account.name} ${maskAccountNumber(number)}` : number}
              </span>
              <span className="text-slate-600">: </span>
              {available !== null ? (
                <strong>
                  <Money cents={available} />
                </strong>
              ) : accounts.isError ? (
                "could not be read"
              ) : (
                "reading…"
              )}
              {count > 1 ? (
                <span className="text-slate-600">
                  {" "}
                  for {countOf(count, "payment")} totalling <Money cents={cents} />
                </span>
              ) : null}
            </p>
            {shortfall > 0 ? (
              <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900">
                <strong>
                  Short by <Money cents={shortfall} />.
                </strong>{" "}
                The bank refuses a payment larger than the available balance: release after funds arrive, or
                reject.
              </p>
            ) : null}
          </div>
        );
      })}
      {anyWire && system.data?.down ? (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          <strong>The wire system is down</strong>
          {system.data.since ? ` (since ${formatInstant(system.data.since, timeZone)})` : ""}:{" "}
          {countOf(system.data.queued, "payment")} already {system.data.queued === 1 ? "waits" : "wait"} in
          the bank's backup log. Releasing a wire now puts it in that log too; the bank sends it, once, when
          the system is back, and the draft shows “Queued for reprocessing” until then.
        </p>
      ) : null}
    </div>
  );
}
