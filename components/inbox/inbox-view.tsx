"use client";
// The approvals inbox: every draft to release and incoming wire to decide that waits for the
// signed-in person, oldest first, in one table with one keyboard model: j/k (or the arrows) move,
// x selects, a approves (releases a draft), c cancels a wire or rejects a draft, r returns a wire,
// ? lists the keys. An action applies to the selected items, or to the focused one when none is
// selected; one confirmation lists each item with what will happen to it and the total, then each
// is decided on its own, through its own route (which enforces every control), with its own result.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ScheduleNotices, StatementNotices } from "@/components/inbox/inbox-notices.tsx";
import { InboxTable, type InboxTableHandle, itemTitle } from "@/components/inbox/inbox-table.tsx";
import { ShortfallWarnings } from "@/components/inbox/shortfall-warnings.tsx";
import { ReleaseChecks } from "@/components/send-money/release-checks.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Dialog, DialogActions } from "@/components/ui/dialog.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { KeyboardPageHeader } from "@/components/ui/keyboard-page-header.tsx";
import { Money } from "@/components/ui/money.tsx";
import { QueryState } from "@/components/ui/query-state.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { inboxQuery } from "@/hooks/use-inbox.ts";
import { type InboxAct, myApprovalSends, planInboxAction } from "@/lib/approvals/draft-rules.ts";
import { ApiError, apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { InboxItem } from "@/lib/dashboard-api/inbox.ts";
import type { IncomingWireDecisionResponse } from "@/lib/dashboard-api/incoming-wires.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { DraftResponse } from "@/lib/dashboard-api/wires.ts";
import { formatUsd } from "@/lib/format/money.ts";

export type Act = InboxAct;
const ACT_KEYS: Record<string, Act> = { a: "approve", c: "cancel", r: "return" };
const ACT_TITLES: Record<Act, string> = {
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

/** Keys typed into a field are the field's, never the inbox's. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

export function InboxView() {
  const query = useQuery(inboxQuery());
  const queryClient = useQueryClient();
  const timeZone = useBusinessTimeZone();
  const items = query.data?.items ?? [];
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [asking, setAsking] = useState<{ act: Act; items: InboxItem[] } | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const table = useRef<InboxTableHandle>(null);
  const accounts = useQuery(accountsQuery());
  const names = useMemo(
    () => new Map((accounts.data?.accounts ?? []).map((a) => [a.accountNumber, a.name])),
    [accounts.data],
  );
  const accountName = useCallback((n: string) => names.get(n), [names]);

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  useEffect(() => {
    document.title = query.data ? `(${items.length}) Approvals · Treasury` : "Approvals · Treasury";
  }, [query.data, items.length]);

  // Items that left (decided here or elsewhere) leave the selection; the cursor stays in range.
  const keys = useMemo(() => new Set(items.map((i) => i.key)), [items]);
  useEffect(() => {
    setSelected((s) => {
      const kept = new Set([...s].filter((k) => keys.has(k)));
      return kept.size === s.size ? s : kept;
    });
    setCursor((c) => Math.min(c, Math.max(0, items.length - 1)));
  }, [keys, items.length]);

  const focusRow = useCallback((index: number) => table.current?.focusRow(index), []);

  const toggle = useCallback((key: string) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  const ask = useCallback(
    (act: Act) => {
      const chosen = selected.size
        ? items.filter((i) => selected.has(i.key))
        : items[cursor]
          ? [items[cursor]]
          : [];
      if (chosen.length) setAsking({ act, items: chosen });
    },
    [items, selected, cursor],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (asking || helpOpen || e.repeat || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (document.querySelector("dialog[open]")) return;
      // The menu and the header keep their own keys.
      if ((e.target as HTMLElement | null)?.closest?.("header")) return;
      if (e.key === "?") {
        e.preventDefault();
        setHelpOpen(true);
      } else if (e.key === "j" || e.key === "ArrowDown") {
        e.preventDefault();
        focusRow(document.activeElement?.closest("tr[data-key]") ? cursor + 1 : cursor);
      } else if (e.key === "k" || e.key === "ArrowUp") {
        e.preventDefault();
        focusRow(cursor - 1);
      } else if (e.key === "x") {
        const item = items[cursor];
        if (!item) return;
        e.preventDefault();
        toggle(item.key);
      } else if (e.key in ACT_KEYS) {
        e.preventDefault();
        ask(ACT_KEYS[e.key]);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [asking, helpOpen, cursor, items, focusRow, toggle, ask]);

  const chosen = selected.size ? items.filter((i) => selected.has(i.key)) : [];
  const chosenTotal = chosen.reduce((s, i) => s + i.amountCents, 0);
  const data = query.data;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <KeyboardPageHeader
        title="Approvals"
        summary={
          data
            ? summaryLine(data.drafts, data.incomingWires, data.mayRelease, data.mayDecideWires)
            : "Everything waiting for you, oldest first."
        }
        onShortcuts={() => setHelpOpen(true)}
      />

      {data ? (
        <dl className="grid grid-cols-3 gap-2 sm:gap-4">
          <Stat label="Waiting for you" value={String(data.count)} />
          <Stat label="Drafts to release" value={String(data.drafts)} />
          <Stat label="Incoming wires to decide" value={String(data.incomingWires)} />
        </dl>
      ) : null}

      <ShortfallWarnings />
      {data?.notices.length ? <ScheduleNotices notices={data.notices} /> : null}
      {data?.statementNotices.length ? <StatementNotices notices={data.statementNotices} /> : null}

      <Card aria-labelledby="inbox-heading">
        <CardHeader
          id="inbox-heading"
          title="Waiting for you"
          description={
            chosen.length
              ? `${chosen.length} selected, ${formatUsd(chosenTotal)} in all`
              : items[cursor]
                ? `Focused: ${itemTitle(items[cursor], accountName)}, ${formatUsd(items[cursor].amountCents)}`
                : "Move with j and k, select with x."
          }
          action={
            <div
              className="flex flex-wrap gap-2"
              role="toolbar"
              aria-label="Decide the selected or focused items"
            >
              {(["approve", "cancel", "return"] as const).map((a) => (
                <Button
                  key={a}
                  size="sm"
                  variant={a === "approve" ? "primary" : "secondary"}
                  disabled={!items.length}
                  onClick={() => ask(a)}
                  aria-keyshortcuts={a[0]}
                >
                  {ACT_TITLES[a]} <kbd className="font-mono text-xs opacity-80">{a[0]}</kbd>
                </Button>
              ))}
            </div>
          }
        />
        <QueryState
          query={query}
          loading="Loading what waits for you"
          errorTitle="What waits for you could not be read"
          isEmpty={items.length === 0}
          empty={
            <EmptyState title="Nothing waits for you">
              {data && !data.mayRelease && !data.mayDecideWires ? (
                <>
                  Your drafts wait for an approver: follow them on{" "}
                  <Link className="text-brand-700 underline" href="/drafts">
                    Drafts
                  </Link>
                  .
                </>
              ) : (
                "New drafts and incoming wires appear here as they arrive. Your own drafts wait for another approver."
              )}
            </EmptyState>
          }
        >
          <InboxTable
            ref={table}
            items={items}
            cursor={cursor}
            onCursor={setCursor}
            selected={selected}
            onToggle={toggle}
            onSelectAll={(all) => setSelected(all ? new Set(items.map((i) => i.key)) : new Set())}
            now={now}
            timeZone={timeZone}
            accountName={accountName}
          />
        </QueryState>
      </Card>
      <p id="inbox-keys" className="text-xs text-slate-600">
        Keys: j and k move, x selects, a approves or releases, c cancels a wire or rejects a draft, r returns
        a wire. Each item is decided on its own, with the same rules as on its own page.
      </p>

      {asking ? (
        <BulkDialog
          act={asking.act}
          items={asking.items}
          accountName={accountName}
          onClose={(decided) => {
            setAsking(null);
            if (decided) {
              setSelected(new Set());
              void queryClient.invalidateQueries({ queryKey: queryKeys.inbox() });
              void queryClient.invalidateQueries({ queryKey: queryKeys.accounts() });
            }
            requestAnimationFrame(() => focusRow(cursor));
          }}
        />
      ) : null}
      <Dialog open={helpOpen} onClose={() => setHelpOpen(false)} title="Keyboard shortcuts">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {[
            ["j / ↓", "Next item"],
            ["k / ↑", "Previous item"],
            ["x", "Select or unselect the focused item"],
            ["a", "Approve: release a draft, approve a wire"],
            ["c", "Cancel a wire, reject a draft"],
            ["r", "Return a wire"],
            ["?", "This list"],
          ].map(([k, v]) => (
            <div key={k} className="contents">
              <dt>
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">
                  {k}
                </kbd>
              </dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <DialogActions>
          <Button onClick={() => setHelpOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </div>
  );
}

function summaryLine(drafts: number, wires: number, mayRelease: boolean, mayDecide: boolean): string {
  if (!mayRelease && !mayDecide)
    return "Approvers release drafts and decide incoming wires; nothing here waits for your role.";
  const parts = [
    mayRelease ? `${drafts} ${drafts === 1 ? "draft" : "drafts"} to release` : "",
    mayDecide ? `${wires} incoming ${wires === 1 ? "wire" : "wires"} to decide` : "",
  ].filter(Boolean);
  return `${parts.join(" and ")}, oldest first. Your own drafts wait for another approver.`;
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-3 py-3 shadow-sm sm:px-5 sm:py-4">
      <dt className="text-xs text-slate-600 sm:text-sm">{label}</dt>
      <dd className="mt-1 text-xl font-semibold text-slate-900 tabular-nums sm:text-2xl">{value}</dd>
    </div>
  );
}

/**
 * One confirmation for several decisions: each item with what the action does to it, the items it
 * does not fit set apart, the total; then each decided in turn, its result beside it.
 */
function BulkDialog({
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
