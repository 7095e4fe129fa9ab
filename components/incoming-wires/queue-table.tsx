"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useImperativeHandle, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { type QueueCursor, useCursor } from "@/components/incoming-wires/queue-cursor.ts";
import { Badge } from "@/components/ui/badge.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Money } from "@/components/ui/money.tsx";
import { SpacerRow } from "@/components/ui/table.tsx";
import { focusWhenRendered, scrollRowIntoBox } from "@/hooks/use-virtual-rows.ts";
import type { IncomingWire } from "@/lib/dashboard-api/index.ts";
import { formatWaited } from "@/lib/format/durations.ts";
import { maskAccountNumber } from "@/lib/format/money.ts";
import { paymentStatusWords } from "@/lib/format/status-words.ts";

export const QUEUE_ROW_HEIGHT = 56;
/** The sticky header row above the rows. */
const HEAD_HEIGHT = 40;

export interface QueueTableHandle {
  /** Makes a row the focused one: scrolls it into view and puts keyboard focus on it. */
  focusRow(index: number): void;
}

const TH =
  "h-10 border-b border-slate-200 px-2 text-left text-xs md:px-3 font-semibold tracking-wide text-slate-600 uppercase";
// On a phone the queue keeps its priority columns (originator, amount, status): how long a wire
// has waited and its account go under the originator, and the rest is in the decision dialog.
const DESKTOP_ONLY = "hidden md:table-cell";
const HEADERS = [
  { label: "Waiting", col: "hidden w-28 md:table-column", cell: DESKTOP_ONLY },
  { label: "Amount", col: "w-32 md:w-40", right: true },
  { label: "Account", col: "hidden w-44 md:table-column", cell: DESKTOP_ONLY },
  { label: "Originator", col: "" },
  { label: "Sending bank", col: "hidden w-52 md:table-column", cell: DESKTOP_ONLY },
  { label: "Information", col: "hidden w-48 md:table-column", cell: DESKTOP_ONLY },
  { label: "Status", col: "w-28 md:w-56" },
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
          <Badge tone="warning">
            {wire.votes.filter((v) => !v.ineligible).length} of {wire.approvalsRequired} approvers
          </Badge>
          <span className="truncate text-xs text-slate-700">
            {wire.votes.map((v, i) => (
              <span key={v.userId}>
                {i ? "; " : ""}
                {v.ineligible ? (
                  <>
                    <s>
                      {PAST[v.action]}: {v.userEmail}
                    </s>{" "}
                    (not counted: {v.ineligible})
                  </>
                ) : (
                  `${PAST[v.action]}: ${v.userEmail}`
                )}
              </span>
            ))}
          </span>
        </span>
      );
    default:
      return wire.needsTwoApprovers ? (
        <Badge tone="warning">Needs 2 approvers</Badge>
      ) : (
        <Badge tone={paymentStatusWords("Pre-Approval").tone}>
          {paymentStatusWords("Pre-Approval").word}
        </Badge>
      );
  }
}

/** Rows scrolled past before the rendered rows move: the window moves this many rows at once. */
const CHUNK = 4;
/**
 * Rows rendered beyond the view on each side: a chunk and two more, so the rows a j/k step scrolls
 * into view are in the DOM before the window moves, and the window moves after the step's frame.
 */
const OVERSCAN = CHUNK + 2;

type OffsetCallback = (offset: number, isScrolling: boolean) => void;

/**
 * Runs fn on its own once the coming frame is painted (from a scroll event, the frame
 * that dispatched it); returns the cancel. What fn changes is laid out by the frame after, whereas
 * work done in the idle time before a frame (requestIdleCallback) makes that frame, the one that
 * shows a key press, lay it out too.
 */
function afterThisFrame(fn: () => void): () => void {
  let cancelled = false;
  const id = requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      if (!cancelled) fn();
    };
    channel.port2.postMessage(null);
  });
  return () => {
    cancelled = true;
    cancelAnimationFrame(id);
  };
}

/**
 * Tells the virtualizer where the box is scrolled, in whole chunks of rows, so the rendered rows
 * change once every CHUNK rows of scrolling rather than on every step. While the rows in view are
 * already rendered (the overscan holds them), the move waits until the frame is painted: the frame
 * of a key press paints what the key changed and nothing more, and the frame after it lays out the
 * moved rows. A scroll that shows rows not rendered (a jump with the scroll bar, a long wheel
 * turn) renders them inside its frame.
 */
function chunkedOffset(rendered: { current: { first: number; last: number } }) {
  return (instance: { scrollElement: Element | Window | null }, cb: OffsetCallback) => {
    const box = instance.scrollElement;
    if (!(box instanceof HTMLElement)) return;
    let reported = 0;
    let cancel: (() => void) | null = null;
    const chunkOf = (top: number) => Math.floor(top / (CHUNK * QUEUE_ROW_HEIGHT)) * CHUNK * QUEUE_ROW_HEIGHT;
    const report = (top: number) => {
      cancel?.();
      cancel = null;
      const offset = chunkOf(top);
      if (offset === reported) return;
      reported = offset;
      flushSync(() => cb(offset, false));
    };
    const onScroll = () => {
      const top = box.scrollTop;
      const first = Math.floor(top / QUEUE_ROW_HEIGHT);
      const last = Math.ceil((top + box.clientHeight - HEAD_HEIGHT) / QUEUE_ROW_HEIGHT) - 1;
      if (first < rendered.current.first || last > rendered.current.last) report(top);
      else if (chunkOf(top) !== reported && !cancel)
        cancel = afterThisFrame(() => {
          cancel = null;
          report(box.scrollTop);
        });
    };
    // A box that mounts scrolled (it seldom does) starts from where it is; this runs inside
    // React's commit, where rendering again waits for the commit to end.
    if (box.scrollTop > 0) {
      reported = chunkOf(box.scrollTop);
      cb(reported, false);
    }
    box.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      cancel?.();
      box.removeEventListener("scroll", onScroll);
    };
  };
}

/**
 * The queue as a real table with only the rows in view and a few either side in the DOM
 * (react-virtual, spacer rows above and below, every row the same height so nothing is ever
 * measured; the rendered rows move a chunk at a time, see chunkedOffset). One row at a time is in
 * the tab order (roving tabindex); the page's keys (j, k, a, c, r) act on that row. The focused
 * row lives in a cursor outside React state: a step re-renders the two rows whose focus changed
 * (their cells stay as they are), and a poll that brings no new wire re-renders none.
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
  const rendered = useRef({ first: 0, last: -1 });
  const [observeElementOffset] = useState(() => chunkedOffset(rendered));
  const virtualizer = useVirtualizer({
    count: wires.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => QUEUE_ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollPaddingStart: HEAD_HEIGHT,
    observeElementOffset,
  });

  const focusRow = useCallback(
    (index: number) => {
      const box = scrollRef.current;
      if (!wires.length || !box) return;
      const i = Math.max(0, Math.min(wires.length - 1, index));
      cursor.set(i);
      scrollRowIntoBox(box, i, QUEUE_ROW_HEIGHT, HEAD_HEIGHT);
      focusWhenRendered(box, i, pendingFocus, { preventScroll: true });
    },
    [wires.length, cursor],
  );
  useImperativeHandle(ref, () => ({ focusRow }), [focusRow]);

  const rows = virtualizer.getVirtualItems();
  rendered.current = rows.length
    ? { first: rows[0].index, last: rows[rows.length - 1].index }
    : { first: 0, last: -1 };
  // One handler for every row's click and focus (the row's index is on it), not two per row.
  const follow = useCallback(
    (e: React.SyntheticEvent) => {
      const row = (e.target as Element).closest<HTMLElement>("tr[data-row-index]");
      if (row) cursor.set(Number(row.dataset.rowIndex));
    },
    [cursor],
  );
  const padTop = rows.length ? rows[0].start : 0;
  const padBottom = rows.length ? virtualizer.getTotalSize() - rows[rows.length - 1].end : 0;

  // An opaque box with its own compositing layer: a step's scroll moves rows already painted
  // rather than painting the box again.
  return (
    <div
      ref={scrollRef}
      className="relative max-h-[60vh] min-h-40 overflow-auto overscroll-contain border-t border-slate-200 bg-white [contain:strict] [will-change:scroll-position]"
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
          <SpacerRow height={padTop} />
          {rows.map((v) => (
            <QueueRow
              key={wires[v.index].paymentId}
              wire={wires[v.index]}
              index={v.index}
              cursor={cursor}
              now={now}
              follow={follow}
            />
          ))}
          <SpacerRow height={padBottom} />
        </tbody>
      </table>
    </div>
  );
});

/** One row; memoised and reading only its own focus, so a j/k step re-renders two rows' own attributes. */
const QueueRow = memo(function QueueRow({
  wire: w,
  index,
  cursor,
  now,
  follow,
}: {
  wire: IncomingWire;
  index: number;
  cursor: QueueCursor;
  now: number;
  follow: (e: React.SyntheticEvent) => void;
}) {
  const active = useCursor(cursor, (at) => at === index);
  return (
    <tr
      aria-rowindex={index + 2}
      aria-current={active ? "true" : undefined}
      data-row-index={index}
      data-payment-id={w.paymentId}
      tabIndex={active ? 0 : -1}
      onClick={follow}
      onFocus={follow}
      className={active ? ACTIVE_ROW : ROW}
      style={ROW_STYLE}
    >
      <QueueCells wire={w} now={now} />
    </tr>
  );
});

const ROW = "cursor-default focus-visible:outline-offset-[-3px] hover:bg-slate-50";
const ACTIVE_ROW =
  "cursor-default focus-visible:outline-offset-[-3px] bg-brand-50 shadow-[inset_4px_0_0_var(--color-brand-700)]";
const ROW_STYLE = { height: QUEUE_ROW_HEIGHT };
const CELL = "border-b border-slate-100 px-2 md:px-3";
const WAITED_CELL = cn(CELL, "whitespace-nowrap text-slate-700 tabular-nums", DESKTOP_ONLY);
const AMOUNT_CELL = cn(CELL, "text-right font-semibold whitespace-nowrap text-slate-900");
const DESKTOP_CELL = cn(CELL, DESKTOP_ONLY);

/** A row's cells: they change with the wire and the clock, never with the focus. */
const QueueCells = memo(function QueueCells({ wire: w, now }: { wire: IncomingWire; now: number }) {
  const waited = formatWaited(w.receivedAt, now);
  return (
    <>
      <td className={WAITED_CELL}>{waited}</td>
      <td className={AMOUNT_CELL}>
        <Money cents={w.amountCents} />
      </td>
      <td className={DESKTOP_CELL}>
        <span className="block truncate text-slate-900">{w.accountName}</span>
        <span className="block text-xs text-slate-600 tabular-nums">
          {maskAccountNumber(w.accountNumber)}
        </span>
      </td>
      <td className={CELL}>
        <span className="block truncate font-medium text-slate-900">{w.originatorName}</span>
        <span className="hidden truncate font-mono text-xs text-slate-600 md:block">{w.paymentId}</span>
        <span className="block truncate text-xs text-slate-600 md:hidden">
          {waited} · {w.accountName}
        </span>
      </td>
      <td className={DESKTOP_CELL}>
        <span className="block truncate text-slate-900">{w.sendingBankName}</span>
        <span className="block text-xs text-slate-600 tabular-nums">{w.sendingBankId}</span>
      </td>
      <td className={DESKTOP_CELL}>
        <span className="block truncate text-slate-800">{w.info || "—"}</span>
        {w.reference ? (
          <span className="block truncate text-xs text-slate-600">Ref {w.reference}</span>
        ) : null}
      </td>
      <td className={CELL}>
        <WireStatus wire={w} />
      </td>
    </>
  );
});
