"use client";
// What an approver needs to see before releasing a draft, beside what it pays: the paying
// account's available balance and any shortfall (the bank refuses a payment larger than it), and,
// for a wire, whether the wire system is down and what happens to the wire instead.
import { useQuery } from "@tanstack/react-query";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Money } from "@/components/ui/money.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { Draft, WireSystemResponse } from "@/lib/dashboard-api/wires.ts";
import { formatInstant } from "@/lib/format/dates.ts";
import { maskAccountNumber } from "@/lib/format/money.ts";
import { countOf } from "@/lib/format/status-words.ts";

export const wireSystemQuery = () => ({
  queryKey: ["wire-system"] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiFetch<typeof WireSystemResponse>("/api/wire-system", { signal }),
});

/** The funds and wire-system facts of a release, read fresh when the dialog opens. */
export function ReleaseChecks({ d }: { d: Draft }) {
  const timeZone = useBusinessTimeZone();
  const accounts = useQuery({ ...accountsQuery(), refetchOnMount: "always" });
  const system = useQuery({ ...wireSystemQuery(), enabled: d.kind === "wire", refetchOnMount: "always" });
  const account = accounts.data?.accounts.find((a) => a.accountNumber === d.fromAccount);
  const available = account?.availableCents ?? null;
  const shortfall = available !== null && d.amountCents > available ? d.amountCents - available : 0;
  return (
    <div className="flex flex-col gap-2 text-sm" data-release-checks>
      <p>
        <span className="font-medium text-slate-600">Available in </span>
        {account ? `${account.name} ${maskAccountNumber(account.accountNumber)}` : d.fromAccount}
        <span className="font-medium text-slate-600">: </span>
        {available !== null ? (
          <strong>
            <Money cents={available} />
          </strong>
        ) : accounts.isError ? (
          "could not be read"
        ) : (
          "reading…"
        )}
      </p>
      {shortfall > 0 ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900">
          <strong>
            Short by <Money cents={shortfall} />.
          </strong>{" "}
          The bank refuses a payment larger than the available balance: release it after funds arrive, or
          reject it.
        </p>
      ) : null}
      {d.kind === "wire" && system.data?.down ? (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          <strong>The wire system is down</strong>
          {system.data.since ? ` (since ${formatInstant(system.data.since, timeZone)})` : ""}:{" "}
          {countOf(system.data.queued, "payment")} already wait in the bank's backup log. Releasing now puts
          this wire in that log too; the bank sends it, once, when the system is back, and the draft shows
          “Queued for reprocessing” until then.
        </p>
      ) : null}
    </div>
  );
}
