"use client";
// The inbox's one confirmation for several decisions: each item with what the action does to it
// (planInboxAction), the items it does not fit set apart and the total; then each is decided in
// turn through its own route (which enforces every control), its result beside it.
import { useState } from "react";
import { itemTitle } from "@/components/inbox/inbox-table.tsx";
import { ReleaseChecks } from "@/components/send-money/release-checks.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Dialog, DialogActions } from "@/components/ui/dialog.tsx";
import { Money } from "@/components/ui/money.tsx";
import { type InboxAct, myApprovalSends, planInboxAction } from "@/lib/approvals/draft-rules.ts";
import { ApiError, apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { InboxItem } from "@/lib/dashboard-api/inbox.ts";
import type { IncomingWireDecisionResponse } from "@/lib/dashboard-api/incoming-wires.ts";
import type { DraftResponse } from "@/lib/dashboard-api/wires.ts";
import { formatUsd } from "@/lib/format/money.ts";

export type Act = InboxAct;

export const ACT_TITLES: Record<Act, string> = {
  approve: "Approve",
  cancel: "Cancel or reject",
  return: "Return",
};

type Result = { state: "waiting" | "working" } | { state: "done" | "failed"; text: string };

/** Decides one item through its own route; the answer, or the refusal, in words. */
async function decideOne(item: InboxItem, act: Act, reason: string): Promise<{ ok: boolean; text: string }> {
  const post = (path: string, body: unknown) => ({
    path,
    init: { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
  });
  try {
    if (item.kind === "draft") {
      const d = item.draft;
      if (act === "cancel") {
        const r = post(`/api/drafts/${d.id}/reject`, { version: d.version, reason });
        await apiFetch<typeof DraftResponse>(r.path, r.init);
        return { ok: true, text: "Rejected; the preparer sees the reason." };
      }
      const r = post(`/api/drafts/${d.id}/release`, { version: d.version });
      const out = await apiFetch<typeof DraftResponse>(r.path, r.init);
      if (out.message) return { ok: true, text: out.message };
      if (out.draft.status === "queued")
        return {
          ok: true,
          text: `The wire system is down: queued for reprocessing (payment ${out.draft.paymentId}); it is sent when the bank replays it.`,
        };
      return {
        ok: true,
        text: out.draft.paymentId
          ? `Released: payment ${out.draft.paymentId}.`
          : "Released: the transfer is complete.",
      };
    }
    const w = item.wire;
    const r = post(`/api/incoming-wires/${encodeURIComponent(w.paymentId)}`, {
      accountNumber: w.accountNumber,
      action: act,
      paymentTimestamp: w.paymentTimestamp,
    });
    const out = await apiFetch<typeof IncomingWireDecisionResponse>(r.path, r.init);
    return { ok: true, text: out.message };
  } catch (e) {
    return { ok: false, text: e instanceof ApiError ? e.message : "It could not be sent. Try again." };
  }
}

/**
 * One confirmation for several decisions: each item with what the action does to it, the items it
 * does not fit set apart, the total; then each decided in turn, its result beside it.
 */
export function BulkDialog({
  act,
  items,
  accountName,
  onClose,
}: {
  act: Act;
  items: InboxItem[];
  accountName: (n: string) => string | undefined;
  onClose: (decided: boolean) => void;
}) {
  const planned = items.map((item) => ({ item, plan: planInboxAction(item, act) }));
  const doing = planned.filter((p) => p.plan.fits);
  const skipped = planned.filter((p) => !p.plan.fits);
  const total = doing.reduce((s, p) => s + p.item.amountCents, 0);
  const needsReason = act === "cancel" && doing.some((p) => p.item.kind === "draft");
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [results, setResults] = useState<Map<string, Result> | null>(null);
  const running =
    !!results && [...results.values()].some((r) => r.state === "waiting" || r.state === "working");
  const finished = !!results && !running;

  const run = async () => {
    if (needsReason && !reason.trim()) {
      setReasonError("Say why the drafts are rejected: the preparer reads it.");
      return;
    }
    const next = new Map<string, Result>(doing.map((p) => [p.item.key, { state: "waiting" }]));
    setResults(new Map(next));
    // One after another: each is its own decision, and a second approver's rule is judged per item.
    for (const p of doing) {
      next.set(p.item.key, { state: "working" });
      setResults(new Map(next));
      const out = await decideOne(p.item, act, reason.trim());
      next.set(p.item.key, { state: out.ok ? "done" : "failed", text: out.text });
      setResults(new Map(next));
    }
  };

  const ok = results ? [...results.values()].filter((r) => r.state === "done").length : 0;
  const failed = results ? [...results.values()].filter((r) => r.state === "failed").length : 0;

  return (
    <Dialog
      open
      onClose={() => {
        if (!running) onClose(!!results);
      }}
      className="w-[min(44rem,calc(100vw-2rem))]"
      title={
        finished
          ? "Decisions sent"
          : `${ACT_TITLES[act]} ${doing.length} ${doing.length === 1 ? "item" : "items"}?`
      }
      description={
        finished
          ? `${ok} done, ${failed} failed. Each item was decided on its own.`
          : `Each is decided on its own, with the same rules as on its own page; one that fails does not stop the others.`
      }
    >
      <ul className="max-h-[50vh] divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
        {doing.map((p) => {
          const r = results?.get(p.item.key);
          return (
            <li key={p.item.key} data-key={p.item.key} className="flex flex-col gap-1 px-3 py-2 text-sm">
              <span className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="min-w-0 font-medium text-slate-900">{itemTitle(p.item, accountName)}</span>
                <Money cents={p.item.amountCents} className="font-semibold" />
              </span>
              <span className="text-xs text-slate-600">{p.plan.fits ? p.plan.words : ""}</span>
              {r ? <ResultLine r={r} /> : null}
            </li>
          );
        })}
      </ul>
      {act === "approve" && !results ? (
        <ReleaseChecks
          drafts={doing.flatMap((p) =>
            p.item.kind === "draft" && myApprovalSends(p.item.draft) ? [p.item.draft] : [],
          )}
        />
      ) : null}
      {skipped.length ? (
        <p className="text-sm text-slate-700">
          Not included:{" "}
          {skipped
            .map((p) => `${itemTitle(p.item, accountName)} (${p.plan.fits ? "" : p.plan.why})`)
            .join("; ")}
          .
        </p>
      ) : null}
      <p className="flex justify-between border-t border-slate-200 pt-2 text-sm font-semibold">
        <span>
          Total of {doing.length} {doing.length === 1 ? "item" : "items"}
        </span>
        <Money cents={total} />
      </p>
      {needsReason && !results ? (
        <div className="flex flex-col gap-1">
          <label htmlFor="bulk-reason" className="text-sm font-medium text-slate-800">
            Reason for rejecting the drafts
          </label>
          <textarea
            id="bulk-reason"
            rows={2}
            maxLength={500}
            value={reason}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? "bulk-reason-error" : undefined}
            onChange={(e) => {
              setReason(e.target.value);
              setReasonError(null);
            }}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
          {reasonError ? (
            <p id="bulk-reason-error" className="text-sm text-rose-700">
              {reasonError}
            </p>
          ) : null}
        </div>
      ) : null}
      <div role="status" aria-live="polite" className="sr-only">
        {finished ? `${ok} done, ${failed} failed.` : running ? "Sending the decisions one by one." : ""}
      </div>
      <DialogActions>
        {finished ? (
          <Button onClick={() => onClose(true)}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" disabled={running} onClick={() => onClose(false)}>
              Keep waiting
            </Button>
            <Button
              onClick={() => void run()}
              disabled={running || doing.length === 0}
              aria-busy={running || undefined}
            >
              {running
                ? "Deciding…"
                : `${ACT_TITLES[act]} ${doing.length} ${doing.length === 1 ? "item" : "items"}, ${formatUsd(total)}`}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

function ResultLine({ r }: { r: Result }) {
  if (r.state === "waiting") return <span className="text-xs text-slate-600">Waiting its turn</span>;
  if (r.state === "working") return <span className="text-xs text-slate-600">Sending…</span>;
  if (r.state !== "done" && r.state !== "failed") return null;
  return (
    <span
      className={cn(
        "flex items-start gap-2 text-xs",
        r.state === "done" ? "text-green-800" : "text-rose-800",
      )}
    >
      <Badge tone={r.state === "done" ? "success" : "danger"}>{r.state === "done" ? "Done" : "Failed"}</Badge>
      <span data-result={r.state}>{r.text}</span>
    </span>
  );
}
