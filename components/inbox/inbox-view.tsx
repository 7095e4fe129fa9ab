"use client";
// The approvals inbox: every draft to release and incoming wire to decide that waits for the
// signed-in person, oldest first, in one table with one keyboard model: j/k (or the arrows) move,
// x selects, a approves (releases a draft), c cancels a wire or rejects a draft, r returns a wire,
// ? lists the keys (hooks/use-inbox-keys.ts). An action applies to the selected items, or to the focused one when none is
// selected; one confirmation lists each item with what will happen to it and the total, then each
// is decided on its own, through its own route (which enforces every control), with its own result
// (components/inbox/bulk-dialog.tsx).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ACT_TITLES, BulkDialog } from "@/components/inbox/bulk-dialog.tsx";
import { ScheduleNotices, StatementNotices } from "@/components/inbox/inbox-notices.tsx";
import { InboxShortcuts } from "@/components/inbox/inbox-shortcuts.tsx";
import { InboxTable, type InboxTableHandle, itemTitle } from "@/components/inbox/inbox-table.tsx";
import { ShortfallWarnings } from "@/components/inbox/shortfall-warnings.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { KeyboardPageHeader } from "@/components/ui/keyboard-page-header.tsx";
import { QueryState } from "@/components/ui/query-state.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { inboxQuery } from "@/hooks/use-inbox.ts";
import { useInboxKeys } from "@/hooks/use-inbox-keys.ts";
import type { InboxAct } from "@/lib/approvals/draft-rules.ts";
import type { InboxItem } from "@/lib/dashboard-api/inbox.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { formatUsd } from "@/lib/format/money.ts";

export function InboxView() {
  const query = useQuery(inboxQuery());
  const queryClient = useQueryClient();
  const timeZone = useBusinessTimeZone();
  const items = query.data?.items ?? [];
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [asking, setAsking] = useState<{ act: InboxAct; items: InboxItem[] } | null>(null);
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
    (act: InboxAct) => {
      const chosen = selected.size
        ? items.filter((i) => selected.has(i.key))
        : items[cursor]
          ? [items[cursor]]
          : [];
      if (chosen.length) setAsking({ act, items: chosen });
    },
    [items, selected, cursor],
  );

  const openHelp = useCallback(() => setHelpOpen(true), []);
  useInboxKeys({
    paused: !!asking || helpOpen,
    cursor,
    focusedKey: items[cursor]?.key,
    focusRow,
    toggle,
    ask,
    openHelp,
  });

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
      <InboxShortcuts open={helpOpen} onClose={() => setHelpOpen(false)} />
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
