"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useImperativeHandle, useRef, useSyncExternalStore } from "react";
import { Badge, type Tone } from "@/components/ui/badge.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Money } from "@/components/ui/money.tsx";
import { SpacerRow } from "@/components/ui/table.tsx";
import { focusWhenRendered, scrollRowIntoBox } from "@/hooks/use-virtual-rows.ts";
// The inbox's table: a real table with only the rows in view and a few either side in the DOM
// (react-virtual, spacer rows above and below), as the incoming-wire queue does, so a thousand
// items render as fast as ten. Every row has the same height at a given width, so nothing is
// measured and a row's place follows from its index. One row at a time is in the tab order
// (roving tabindex); the page's keys act on it, and moving to a row outside the rendered window
// scrolls it into view, then focuses it once it is rendered. aria-rowcount and aria-rowindex tell a
// screen reader the whole list's size and each row's place in it.
import { countedApprovals } from "@/lib/approvals/draft-rules.ts";
import type { InboxItem } from "@/lib/dashboard-api/inbox.ts";
import { formatInstant } from "@/lib/format/dates.ts";
import { formatWaited } from "@/lib/format/durations.ts";
import { formatUsd, maskAccountNumber } from "@/lib/format/money.ts";
import { draftStatusWords, paymentStatusWords } from "@/lib/format/status-words.ts";

/** A row from lg up (the status has its column) and below it (the status goes under the item). */
const ROW_HEIGHT = { wide: 60, narrow: 84 } as const;
/** The sticky header row above the rows. */
const HEAD_HEIGHT = 40;
/** Rows rendered beyond the view on each side: a j/k step finds its row already there. */
const OVERSCAN = 8;
const WIDE = "(min-width: 1024px)";

function useRowHeight(): number {
  const wide = useSyncExternalStore(
    (onChange) => {
      const m = window.matchMedia(WIDE);
      m.addEventListener("change", onChange);
      return () => m.removeEventListener("change", onChange);
    },
    () => window.matchMedia(WIDE).matches,
    () => true,
  );
  return wide ? ROW_HEIGHT.wide : ROW_HEIGHT.narrow;
}

export interface InboxTableHandle {
  /** Makes a row the focused one: scrolls it into view and puts keyboard focus on it. */
  focusRow(index: number): void;
}

type Names = (accountNumber: string) => string | undefined;

/** Whom a draft pays: the payee of a wire, or the SEN account by its name when it is the customer's. */
function payee(d: Extract<InboxItem, { kind: "draft" }>["draft"], accountName?: Names): string {
  if (d.kind === "wire") return d.counterparty;
  const name = accountName?.(d.counterparty);
  return name ? `${name} ${maskAccountNumber(d.counterparty)}` : d.counterparty;
}

/** An item in one line: "Wire to ACME", "SEN transfer to RESERVE ••••0002", "Incoming wire from …". */
export function itemTitle(item: InboxItem, accountName?: Names): string {
  if (item.kind === "draft")
    return `${item.draft.kind === "wire" ? "Wire" : "SEN transfer"} to ${payee(item.draft, accountName)}`;
  return `Incoming wire from ${item.wire.originatorName || "an unnamed originator"}`;
}

/** An item's status in words: its approvals counted as the server counts them. */
export function statusOf(item: InboxItem): [string, Tone] {
  if (item.kind === "draft") {
    const d = item.draft;
    if (d.approvalsRequired > 1) {
      const counted = countedApprovals(d).length;
      return [`${counted} of ${d.approvalsRequired} approvals`, counted ? "brand" : "warning"];
    }
    const { word, tone } = draftStatusWords("pending");
    return [word, tone];
  }
  const w = item.wire;
  if (w.state === "awaiting_second_approval") {
    const counted = w.votes.filter((v) => !v.ineligible).length;
    return [`${counted} of ${w.approvalsRequired} approvers`, counted ? "brand" : "warning"];
  }
  if (w.needsTwoApprovers) return [`Needs ${w.approvalsRequired} approvers`, "warning"];
  const { word, tone } = paymentStatusWords("Pre-Approval", "Incoming");
  return [word, tone];
}

const TH = "h-10 border-b border-slate-200 bg-slate-50 px-3";
/** The columns after the checkbox: a phone keeps the item and the amount, the rest go under the item. */
const HEADERS = [
  { label: "Item", className: "" },
  { label: "Account", className: "hidden w-44 md:table-cell" },
  { label: "Amount", className: "w-32 text-right md:w-40" },
  { label: "Waiting", className: "hidden w-44 md:table-cell xl:w-56" },
  { label: "Status", className: "hidden w-48 lg:table-cell" },
];

const TD = "border-b border-slate-100 px-3 py-2 align-top";

export function InboxTable({
  items,
  cursor,
  onCursor,
  selected,
  onToggle,
  onSelectAll,
  now,
  timeZone,
  accountName,
  ref,
}: {
  items: InboxItem[];
  cursor: number;
  onCursor: (index: number) => void;
  selected: Set<string>;
  onToggle: (key: string) => void;
  onSelectAll: (all: boolean) => void;
  now: number;
  timeZone: string;
  accountName: Names;
  ref?: React.Ref<InboxTableHandle>;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<number | null>(null);
  const rowHeight = useRowHeight();
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollPaddingStart: HEAD_HEIGHT,
  });
  // A new width may change the row height: every row's place moves with it.
  const measuredAt = useRef(rowHeight);
  useEffect(() => {
    if (measuredAt.current === rowHeight) return;
    measuredAt.current = rowHeight;
    virtualizer.measure();
  });

  const focusRow = useCallback(
    (index: number) => {
      const box = scrollRef.current;
      if (!items.length || !box) return;
      const i = Math.max(0, Math.min(items.length - 1, index));
      onCursor(i);
      scrollRowIntoBox(box, i, rowHeight, HEAD_HEIGHT);
      // The page scrolls too when the box itself is partly out of view (a phone).
      focusWhenRendered(box, i, pendingFocus);
    },
    [items.length, rowHeight, onCursor],
  );
  useImperativeHandle(ref, () => ({ focusRow }), [focusRow]);

  const rows = virtualizer.getVirtualItems();
  const padTop = rows.length ? rows[0].start : 0;
  const padBottom = rows.length ? virtualizer.getTotalSize() - rows[rows.length - 1].end : 0;
  const allSelected = items.length > 0 && selected.size === items.length;

  return (
    <div
      ref={scrollRef}
      className="relative max-h-[60vh] min-h-40 overflow-auto overscroll-contain"
      style={{ height: Math.min(items.length * rowHeight + HEAD_HEIGHT + 2, 640) }}
    >
      <table
        aria-rowcount={items.length + 1}
        aria-describedby="inbox-keys"
        className="w-full table-fixed border-separate border-spacing-0 text-sm"
      >
        <caption className="sr-only">Waiting for you, oldest first</caption>
        <thead className="sticky top-0 z-10">
          <tr
            aria-rowindex={1}
            className="text-left text-xs font-semibold tracking-wide text-slate-600 uppercase"
          >
            <th scope="col" className={cn(TH, "w-12")}>
              <input
                type="checkbox"
                aria-label="Select all"
                className="size-4 accent-brand-700"
                checked={allSelected}
                onChange={() => onSelectAll(!allSelected)}
              />
            </th>
            {HEADERS.map((h) => (
              <th key={h.label} scope="col" className={cn(TH, h.className)}>
                {h.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={padTop} />
          {rows.map((v) => {
            const item = items[v.index];
            const index = v.index;
            const [status, tone] = statusOf(item);
            const isSelected = selected.has(item.key);
            const focused = index === cursor;
            const account = item.kind === "draft" ? item.draft.fromAccount : item.wire.accountNumber;
            const name = item.kind === "draft" ? accountName(account) : item.wire.accountName;
            const waited = formatWaited(item.waitingSince, now);
            const since = formatInstant(item.waitingSince, timeZone);
            const kind = item.kind === "draft" ? "Draft to release" : "Incoming wire";
            return (
              <tr
                key={item.key}
                aria-rowindex={index + 2}
                data-row-index={index}
                data-key={item.key}
                data-kind={item.kind}
                tabIndex={focused ? 0 : -1}
                aria-current={focused ? "true" : undefined}
                onFocus={() => onCursor(index)}
                style={{ height: rowHeight }}
                className={cn(
                  "outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-inset",
                  isSelected ? "bg-brand-50" : focused ? "bg-slate-50" : "bg-white",
                )}
              >
                <td className={TD}>
                  <input
                    type="checkbox"
                    tabIndex={-1}
                    className="mt-1 size-4 accent-brand-700"
                    aria-label={`Select ${itemTitle(item, accountName)}, ${formatUsd(item.amountCents)}`}
                    checked={isSelected}
                    onChange={() => onToggle(item.key)}
                  />
                </td>
                <td className={cn(TD, "min-w-0")}>
                  <span className="flex min-w-0 items-center gap-2">
                    <span className="hidden shrink-0 md:inline">
                      <Badge tone={item.kind === "draft" ? "brand" : "neutral"}>{kind}</Badge>
                    </span>
                    <span className="min-w-0 truncate font-medium text-slate-900">
                      {item.kind === "draft" ? payee(item.draft, accountName) : item.wire.originatorName}
                    </span>
                  </span>
                  <span className="mt-0.5 block truncate text-xs text-slate-600 md:hidden">
                    {kind} · {waited}
                    <span className="sr-only"> waiting</span>
                  </span>
                  <span className="mt-0.5 hidden truncate text-xs text-slate-600 md:block">
                    {item.kind === "draft"
                      ? `${item.draft.kind === "wire" ? "Wire" : "SEN transfer"} prepared by ${item.draft.preparedBy.email}`
                      : `${item.wire.sendingBankName || "Sending bank"}${item.wire.info ? ` · ${item.wire.info}` : ""}`}
                  </span>
                  <span className="mt-1 flex min-w-0 items-center gap-x-2 text-xs whitespace-nowrap text-slate-600 lg:hidden">
                    <Badge tone={tone} className="shrink-0">
                      {status}
                    </Badge>
                  </span>
                </td>
                <td className={cn(TD, "hidden md:table-cell")}>
                  {name ? <span className="block truncate">{name}</span> : null}
                  <span className="block text-xs text-slate-600 tabular-nums">
                    {maskAccountNumber(account)}
                  </span>
                </td>
                <td className={cn(TD, "text-right font-semibold whitespace-nowrap")}>
                  <Money cents={item.amountCents} />
                </td>
                <td className={cn(TD, "hidden whitespace-nowrap md:table-cell")}>
                  <span className="block truncate">{waited}</span>
                  <span className="block truncate text-xs text-slate-600" title={since}>
                    {since}
                  </span>
                </td>
                <td className={cn(TD, "hidden lg:table-cell")}>
                  <Badge tone={tone}>{status}</Badge>
                </td>
              </tr>
            );
          })}
          <SpacerRow height={padBottom} />
        </tbody>
      </table>
    </div>
  );
}
