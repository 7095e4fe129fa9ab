"use client";
// What waits for whom: drafts (wires, and SEN transfers above the threshold) with who prepared
// them, when, the amount, the beneficiary and its approvals. Release and Reject appear only for a
// user with release rights who did not prepare the draft; above the release dual-approval limit
// the first approver's button is Approve (it records the vote and sends nothing) and the second's
// is Release. A draft decided or changed meanwhile answers 409, and the list is read again so the
// page shows its current state.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { ApprovalList } from "@/components/send-money/approval-list.tsx";
import { bankRefusal, DraftSummary, nextApproval } from "@/components/send-money/draft-summary.tsx";
import { ReleaseChecks, wireSystemQuery } from "@/components/send-money/release-checks.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/dialog.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { Money } from "@/components/ui/money.tsx";
import { QueryTableCard } from "@/components/ui/query-table-card.tsx";
import { Td, Th, Tr } from "@/components/ui/table.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { useConfirmedAction } from "@/hooks/use-confirmed-action.ts";
import {
  approvedBy,
  approveLabel,
  isActionableDraft,
  myApprovalSends,
  stillNeededWords,
} from "@/lib/approvals/draft-rules.ts";
import { ApiError, apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { Draft, DraftListResponse, DraftResponse } from "@/lib/dashboard-api/wires.ts";
import { formatInstant } from "@/lib/format/dates.ts";
import { draftStatusWords } from "@/lib/format/status-words.ts";

// The reject form (and zod with it) loads when a reject dialog is first wanted, not with the page.
const RejectDialog = dynamic(() => import("./reject-dialog.tsx").then((m) => m.RejectDialog), { ssr: false });

const draftsKey = (scope: "open" | "all") => ["drafts", scope] as const;

export function DraftsView({ me, canRelease }: { me: { id: string }; canRelease: boolean }) {
  const timeZone = useBusinessTimeZone();
  const [scope, setScope] = useState<"open" | "all">("open");
  const queryClient = useQueryClient();
  const drafts = useQuery({
    queryKey: draftsKey(scope),
    queryFn: ({ signal }) => apiFetch<typeof DraftListResponse>(`/api/drafts?status=${scope}`, { signal }),
  });
  const [rejecting, setRejecting] = useState<Draft | null>(null);
  const [announce, setAnnounce] = useState("");

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.drafts() });

  const release = useConfirmedAction({
    mutationFn: (d: Draft) =>
      apiFetch<typeof DraftResponse>(`/api/drafts/${d.id}/release`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ version: d.version }),
      }),
    onSuccess: (r) => {
      setAnnounce(
        r.message
          ? r.message
          : r.draft.status === "queued"
            ? `The wire system is down: the wire is queued for reprocessing (payment ${r.draft.paymentId}) and is sent when the bank replays it.`
            : r.draft.paymentId
              ? `Released. The bank's payment id is ${r.draft.paymentId}.`
              : "Released: the transfer is complete.",
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.accounts() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.payments() });
    },
    onSettled: () => refresh(),
  });

  const list = drafts.data?.drafts ?? [];
  const accounts = useQuery(accountsQuery());
  // Account names beside bare numbers: "Operating · 1000000001".
  const accountLabel = (n: string) => {
    const a = accounts.data?.accounts.find((x) => x.accountNumber === n);
    return a ? `${a.name} · ${n}` : n;
  };
  const wireSystem = useQuery({ ...wireSystemQuery(), enabled: release.item?.kind === "wire" });
  const releaseFirstOfTwo = !!release.item && !myApprovalSends(release.item, me.id);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div role="status" className="text-sm text-green-800" aria-live="polite">
        {announce}
      </div>
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Which drafts</legend>
        {(["open", "all"] as const).map((s) => (
          <label key={s} className="flex items-center gap-2">
            <input type="radio" name="scope" value={s} checked={scope === s} onChange={() => setScope(s)} />
            {s === "open" ? "Awaiting approval" : "All recent drafts"}
          </label>
        ))}
      </fieldset>
      <QueryTableCard
        query={drafts}
        title={scope === "open" ? "Awaiting approval" : "All recent drafts"}
        description={
          canRelease
            ? "Release sends the payment to the bank. You cannot release what you prepared."
            : "A person with release rights releases these; you can follow them here."
        }
        loading="Loading drafts…"
        count={list.length}
        empty={
          <EmptyState title={scope === "open" ? "Nothing awaits approval" : "No drafts yet"}>
            Wires are prepared on the{" "}
            <Link className="text-brand-700 underline" href="/wires/new">
              Send a wire
            </Link>{" "}
            page; SEN transfers above the release threshold also wait here.
          </EmptyState>
        }
        caption="Drafts, newest first"
        columns={
          <>
            {/* On a phone: the payment with its amount, status and account below it, and the actions. */}
            <Th>Payment</Th>
            <Th className="hidden md:table-cell">From</Th>
            <Th className="hidden text-right md:table-cell">Amount</Th>
            <Th className="hidden md:table-cell">Prepared</Th>
            <Th className="hidden md:table-cell">Status</Th>
          </>
        }
      >
        {list.map((d) => {
          const own = d.preparedBy.id === me.id;
          const open = isActionableDraft(d.status);
          const approvedByMe = d.status === "pending" && approvedBy(d, me.id);
          const firstOfTwo = !myApprovalSends(d, me.id);
          const { word: status, tone } = draftStatusWords(d.status);
          return (
            <Tr key={d.id} data-draft={d.id}>
              <Td>
                <span className="font-medium">{d.kind === "wire" ? "Wire to " : "SEN transfer to "}</span>
                {d.kind === "wire" ? d.counterparty : accountLabel(d.counterparty)}
                <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 md:hidden">
                  <Money cents={d.amountCents} className="font-semibold" />
                  <Badge tone={tone}>{status}</Badge>
                  <span className="text-xs text-slate-600 tabular-nums">
                    from {accountLabel(d.fromAccount)}
                  </span>
                </span>
                {bankRefusal(d) ? (
                  <span className="mt-1 block text-xs text-red-800 md:hidden">
                    Bank's reason: {bankRefusal(d)}
                  </span>
                ) : null}
              </Td>
              <Td className="hidden tabular-nums md:table-cell">{accountLabel(d.fromAccount)}</Td>
              <Td className="hidden text-right md:table-cell">
                <Money cents={d.amountCents} />
              </Td>
              <Td className="hidden md:table-cell">
                {own ? "You" : d.preparedBy.email}
                <span className="block text-xs text-slate-600">{formatInstant(d.preparedAt, timeZone)}</span>
              </Td>
              <Td className="hidden md:table-cell">
                <Badge tone={tone}>{status}</Badge>
                {d.decidedBy && !open ? (
                  <span className="block text-xs text-slate-600">by {d.decidedBy.email}</span>
                ) : null}
                {d.rejectReason ? (
                  <span className="block text-xs text-slate-600">“{d.rejectReason}”</span>
                ) : null}
                {bankRefusal(d) ? (
                  <span className="block text-xs text-red-800">Bank's reason: {bankRefusal(d)}</span>
                ) : null}
                {d.paymentId ? (
                  <span className="block text-xs text-slate-600">Payment {d.paymentId}</span>
                ) : null}
                {d.status === "pending" || d.approvals.length > 1 ? (
                  <span className="block text-xs text-slate-600">
                    <ApprovalList d={d} />
                  </span>
                ) : null}
                {d.status === "pending" && d.approvalsRequired > 1 ? (
                  <span className="block text-xs text-slate-600">{stillNeededWords(d)}</span>
                ) : null}
              </Td>
              <Td>
                {open && canRelease && !own ? (
                  <div className="flex flex-col gap-2 md:flex-row">
                    {approvedByMe ? (
                      <span className="block text-xs text-slate-600">
                        You approved; waiting for {d.approvalsRequired > 2 ? "another" : "a second"} approver
                      </span>
                    ) : (
                      <Button size="sm" onClick={() => release.ask(d)}>
                        {firstOfTwo ? "Approve" : "Release"}
                      </Button>
                    )}
                    <Button size="sm" variant="secondary" onClick={() => setRejecting(d)}>
                      Reject
                    </Button>
                  </div>
                ) : open && own ? (
                  <span className="block text-xs text-slate-600">Another approver releases it</span>
                ) : null}
                {d.status === "pending" && d.kind === "wire" && (own || canRelease) ? (
                  <Link
                    className="mt-1 inline-block text-sm font-medium text-brand-700 underline"
                    href={`/wires/new?draft=${d.id}`}
                    aria-label={`Correct the wire to ${d.counterparty}`}
                  >
                    Correct
                  </Link>
                ) : null}
              </Td>
            </Tr>
          );
        })}
      </QueryTableCard>

      <ConfirmDialog
        {...release.dialog}
        // A 409 means the draft changed or was released meanwhile: releasing again cannot help.
        disabled={release.mutation.error instanceof ApiError && release.mutation.error.status === 409}
        title={releaseFirstOfTwo ? "Approve this payment?" : "Release this payment?"}
        description={
          release.item
            ? `${nextApproval(release.item, me, wireSystem.data?.down)} A second click or a retry cannot pay it twice.`
            : undefined
        }
        cancelLabel="Cancel"
        actionLabel={
          release.item && releaseFirstOfTwo ? approveLabel(release.item, me.id) : "Release payment"
        }
        busyLabel={releaseFirstOfTwo ? "Approving…" : "Releasing…"}
      >
        {release.item ? (
          <>
            <ReleaseChecks drafts={[release.item]} />
            <DraftSummary d={release.item} />
          </>
        ) : null}
      </ConfirmDialog>

      {rejecting ? (
        <RejectDialog
          draft={rejecting}
          onClose={() => setRejecting(null)}
          onDone={(d) => {
            setRejecting(null);
            setAnnounce(`Rejected: ${d.counterparty}, reason recorded.`);
            void refresh();
          }}
        />
      ) : null}
    </div>
  );
}
