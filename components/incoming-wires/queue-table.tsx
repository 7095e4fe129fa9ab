"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useImperativeHandle, useRef } from "react";
import { type QueueCursor, useCursor } from "@/components/incoming-wires/queue-cursor.ts";
import { Badge } from "@/components/ui/badge.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Money } from "@/components/ui/money.tsx";
import type { IncomingWire } from "@/lib/dashboard-api/index.ts";
import { formatWaited } from "@/lib/format/durations.ts";
import { maskAccountNumber } from "@/lib/format/money.ts";

export const QUEUE_ROW_HEIGHT = 56;
/** The sticky header row above the rows. */
const HEAD_HEIGHT = 40;

export interface QueueTableHandle {
  /** Makes a row the focused one: scrolls it into view and puts keyboard focus on it. */
  focusRow(index: number): void;
}

const TH =
  "h-10 border-b border-slate-200 px-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";
// On a phone the queue keeps its priority columns (originator, amount, status): how long a wire
// has waited and its account go under the originator, and the rest is in the decision dialog.
const DESKTOP_ONLY = "hidden md:table-cell";
const HEADERS = [
  { label: "Waiting", col: "hidden w-28 md:table-column", cell: DESKTOP_ONLY },
  { label: "Amount", col: "w-28 md:w-40", right: true },
  { label: "Account", col: "hidden w-44 md:table-column", cell: DESKTOP_ONLY },
  { label: "Originator", col: "" },
  { label: "Sending bank", col: "hidden w-52 md:table-column", cell: DESKTOP_ONLY },
  { label: "Information", col: "hidden w-48 md:table-column", cell: DESKTOP_ONLY },
  { label: "Status", col: "w-[8.5rem] md:w-56" },
];

const PAST = { approve: "approve", cancel: "cancel", return: "return" } as const;

/** The row's state in words: the colour of the badge only repeats them. */
export function WireStatus({ wire }: { wire: IncomingWire }) {
  switch (wire.state) {
    case "queued":
      return <Badge tone="brand">Queued for reprocessing ({wire.pendingAction})</Badge>;
    case "sending":
      return <Badge tone="brand">Sending {wire.pendingAction}…</Badge>;
    case "unconfirmed":
      return <Badge tone="warning">Waiting for the bank's answer</Badge>;
    case "awaiting_second_approval":
      return (
        <span className="flex flex-col gap-0.5">
          <Badge tone="warning">1 of 2 approvers</Badge>
          <span className="truncate text-xs text-slate-700">
            {wire.votes.map((v) => `${PAST[v.action]}: ${v.userEmail}`).join("; ")}
          </span>
        </span>
      );
    default:
      return wire.needsTwoApprovers ? (
        <Badge tone="warning">Needs 2 approvers</Badge>
      ) : (
        <Badge tone="neutral">Waiting</Badge>
      );
  }
}

/**
 * The queue as a real table with only the rows in view in the DOM (react-virtual, spacer rows
 * above and below, every row the same height so nothing is ever measured). One row at a time is in
 * the tab order (roving tabindex); the page's keys (j, k, a, c, r) act on that row. The focused
 * row lives in a cursor outside React state: a step re-renders the two rows whose focus changed,
 * and a poll that brings no new wire re-renders none.
 */
export const QueueTable = memo(function QueueTable({
  wires,
  cursor,
  now,
  ref,
}: {
  wires: IncomingWire[];
  cursor: QueueCursor;
  now: number;
  ref?: React.Ref<QueueTableHandle>;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<number | null>(null);
  const virtualizer = useVirtualizer({
    count: wires.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => QUEUE_ROW_HEIGHT,
    // Enough rows beyond the view that the next one is always there to take focus; every extra
    // row is laid out and painted again on each step.
    overscan: 3,
    scrollPaddingStart: HEAD_HEIGHT,
    // The rows a scroll brings into the window render after the frame, not inside the scroll
    // event: the row a step focuses is already there, so the frame showing it waits for nothing.
    useFlushSync: false,
  });

  const focusRow = useCallback(
    (index: number) => {
      const box = scrollRef.current;
      if (!wires.length || !box) return;
      const i = Math.max(0, Math.min(wires.length - 1, index));
      cursor.set(i);
      // Where the row is follows from the fixed heights; the box is read before the step writes
      // anything to the page, so the read finds the layout clean and forces none.
      const top = HEAD_HEIGHT + i * QUEUE_ROW_HEIGHT;
      const bottom = top + QUEUE_ROW_HEIGHT;
      const { scrollTop, clientHeight } = box;
      if (top < scrollTop + HEAD_HEIGHT) box.scrollTop = top - HEAD_HEIGHT;
      else if (bottom > scrollTop + clientHeight) box.scrollTop = bottom - clientHeight;
      pendingFocus.current = i;
      // A row outside the rendered window appears once the virtualizer has followed the scroll.
      const tryFocus = (attempt: number) => {
        if (pendingFocus.current !== i) return;
        const el = box.querySelector<HTMLElement>(`tr[data-row-index="${i}"]`);
        if (el) {
          el.focus({ preventScroll: true });
          pendingFocus.current = null;
        } else if (attempt < 10) requestAnimationFrame(() => tryFocus(attempt + 1));
      };
      tryFocus(0);
    },
    [wires.length, cursor],
  );
  useImperativeHandle(ref, () => ({ focusRow }), [focusRow]);

  const rows = virtualizer.getVirtualItems();
  const padTop = rows.length ? rows[0].start : 0;
  const padBottom = rows.length ? virtualizer.getTotalSize() - rows[rows.length - 1].end : 0;

  return (
    <div
      ref={scrollRef}
      className="relative max-h-[60vh] min-h-40 overflow-auto overscroll-contain border-t border-slate-200"
      style={{ height: Math.min(wires.length * QUEUE_ROW_HEIGHT + 42, 640) }}
    >
      <table
        aria-rowcount={wires.length + 1}
        className="w-full table-fixed border-separate border-spacing-0 text-sm md:min-w-[68rem]"
      >
        <caption className="sr-only">
          Incoming wires waiting for a decision, oldest first. Keys: j and k move, a approves, c cancels, r
          returns, question mark lists the keys.
        </caption>
        <colgroup>
          {HEADERS.map((h) => (
            <col key={h.label} className={h.col} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-50">
          <tr aria-rowindex={1}>
            {HEADERS.map((h) => (
              <th key={h.label} scope="col" className={cn(TH, h.right && "text-right", h.cell)}>
                {h.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 ? (
            <tr>
              <td colSpan={HEADERS.length} style={{ height: padTop, padding: 0 }} />
            </tr>
          ) : null}
          {rows.map((v) => (
            <QueueRow
              key={wires[v.index].paymentId}
              wire={wires[v.index]}
              index={v.index}
              cursor={cursor}
              now={now}
            />
          ))}
          {padBottom > 0 ? (
            <tr>
              <td colSpan={HEADERS.length} style={{ height: padBottom, padding: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
});

/** One row; memoised and reading only its own focus, so a j/k step re-renders two rows. */
const QueueRow = memo(function QueueRow({
  wire: w,
  index,
  cursor,
  now,
}: {
  wire: IncomingWire;
  index: number;
  cursor: QueueCursor;
  now: number;
}) {
  const active = useCursor(cursor, (at) => at === index);
  return (
    <tr
      aria-rowindex={index + 2}
      aria-current={active ? "true" : undefined}
      data-row-index={index}
      data-payment-id={w.paymentId}
      tabIndex={active ? 0 : -1}
      onClick={() => cursor.set(index)}
      onFocus={() => cursor.set(index)}
      className={cn(
        "cursor-default focus-visible:outline-offset-[-3px]",
        active ? "bg-brand-50 shadow-[inset_4px_0_0_var(--color-brand-700)]" : "hover:bg-slate-50",
      )}
      style={{ height: QUEUE_ROW_HEIGHT }}
    >
      <td
        className={cn(
          "border-b border-slate-100 px-3 whitespace-nowrap text-slate-700 tabular-nums",
          DESKTOP_ONLY,
        )}
      >
        {formatWaited(w.receivedAt, now)}
      </td>
      <td className="border-b border-slate-100 px-3 text-right font-semibold whitespace-nowrap text-slate-900">
        <Money cents={w.amountCents} />
      </td>
      <td className={cn("border-b border-slate-100 px-3", DESKTOP_ONLY)}>
        <span className="block truncate text-slate-900">{w.accountName}</span>
        <span className="block text-xs text-slate-600 tabular-nums">
          {maskAccountNumber(w.accountNumber)}
        </span>
      </td>
      <td className="border-b border-slate-100 px-3">
        <span className="block truncate font-medium text-slate-900">{w.originatorName}</span>
        <span className="hidden truncate font-mono text-xs text-slate-600 md:block">{w.paymentId}</span>
        <span className="block truncate text-xs text-slate-600 md:hidden">
          {formatWaited(w.receivedAt, now)} · {w.accountName}
        </span>
      </td>
      <td className={cn("border-b border-slate-100 px-3", DESKTOP_ONLY)}>
        <span className="block truncate text-slate-900">{w.sendingBankName}</span>
        <span className="block text-xs text-slate-600 tabular-nums">{w.sendingBankId}</span>
      </td>
      <td className={cn("border-b border-slate-100 px-3", DESKTOP_ONLY)}>
        <span className="block truncate text-slate-800">{w.info || "—"}</span>
        {w.reference ? (
          <span className="block truncate text-xs text-slate-600">Ref {w.reference}</span>
        ) : null}
      </td>
      <td className="border-b border-slate-100 px-3">
        <WireStatus wire={w} />
      </td>
    </tr>
  );
});
