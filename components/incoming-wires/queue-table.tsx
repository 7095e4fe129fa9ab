"use client";
import { memo, useImperativeHandle } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Money } from "@/components/ui/money.tsx";
import { SpacerRow } from "@/components/ui/table.tsx";
import { useVirtualRows } from "@/hooks/use-virtual-rows.ts";
import type { IncomingWire } from "@/lib/dashboard-api/index.ts";
import { formatWaited } from "@/lib/format/durations.ts";
import { maskAccountNumber } from "@/lib/format/money.ts";

export const QUEUE_ROW_HEIGHT = 56;

export interface QueueTableHandle {
  /** Scrolls to a row and puts keyboard focus on it (it may need a frame to be rendered). */
  focusRow(index: number): void;
}

const TH =
  "h-10 border-b border-slate-200 px-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";
const HEADERS = [
  { label: "Waiting", width: "7rem" },
  { label: "Amount", width: "10rem", right: true },
  { label: "Account", width: "11rem" },
  { label: "Originator", width: "auto" },
  { label: "Sending bank", width: "13rem" },
  { label: "Information", width: "12rem" },
  { label: "Status", width: "14rem" },
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
 * above and below). One row at a time is in the tab order (roving tabindex); the page's keys
 * (j, k, a, c, r) act on that row.
 */
export function QueueTable({
  wires,
  active,
  onActivate,
  now,
  ref,
}: {
  wires: IncomingWire[];
  active: number;
  onActivate: (index: number) => void;
  now: number;
  ref?: React.Ref<QueueTableHandle>;
}) {
  const {
    scrollRef,
    items: rows,
    padTop,
    padBottom,
    focusRow,
  } = useVirtualRows({ count: wires.length, rowHeight: QUEUE_ROW_HEIGHT, overscan: 8, keepScroll: true });
  useImperativeHandle(ref, () => ({ focusRow }), [focusRow]);

  return (
    <div
      ref={scrollRef}
      className="relative max-h-[60vh] min-h-40 overflow-auto overscroll-contain border-t border-slate-200"
      style={{ height: Math.min(wires.length * QUEUE_ROW_HEIGHT + 42, 640) }}
    >
      <table
        aria-rowcount={wires.length + 1}
        className="w-full min-w-[68rem] table-fixed border-separate border-spacing-0 text-sm"
      >
        <caption className="sr-only">
          Incoming wires waiting for a decision, oldest first. Keys: j and k move, a approves, c cancels, r
          returns, question mark lists the keys.
        </caption>
        <colgroup>
          {HEADERS.map((h) => (
            <col key={h.label} style={{ width: h.width === "auto" ? undefined : h.width }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-50">
          <tr aria-rowindex={1}>
            {HEADERS.map((h) => (
              <th key={h.label} scope="col" className={cn(TH, h.right && "text-right")}>
                {h.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={padTop} columns={HEADERS.length} />
          {rows.map((v) => (
            <QueueRow
              key={wires[v.index].paymentId}
              wire={wires[v.index]}
              index={v.index}
              active={v.index === active}
              now={now}
              onActivate={onActivate}
            />
          ))}
          <SpacerRow height={padBottom} columns={HEADERS.length} />
        </tbody>
      </table>
    </div>
  );
}

/** One row; memoised, so a j/k step re-renders only the two rows whose focus changed. */
const QueueRow = memo(function QueueRow({
  wire: w,
  index,
  active,
  now,
  onActivate,
}: {
  wire: IncomingWire;
  index: number;
  active: boolean;
  now: number;
  onActivate: (index: number) => void;
}) {
  return (
    <tr
      aria-rowindex={index + 2}
      aria-current={active ? "true" : undefined}
      data-row-index={index}
      data-payment-id={w.paymentId}
      tabIndex={active ? 0 : -1}
      onClick={() => onActivate(index)}
      onFocus={() => onActivate(index)}
      className={cn(
        "cursor-default focus-visible:outline-offset-[-3px]",
        active ? "bg-brand-50 shadow-[inset_4px_0_0_var(--color-brand-700)]" : "hover:bg-slate-50",
      )}
      style={{ height: QUEUE_ROW_HEIGHT }}
    >
      <td className="border-b border-slate-100 px-3 whitespace-nowrap text-slate-700 tabular-nums">
        {formatWaited(w.receivedAt, now)}
      </td>
      <td className="border-b border-slate-100 px-3 text-right font-semibold whitespace-nowrap text-slate-900">
        <Money cents={w.amountCents} />
      </td>
      <td className="border-b border-slate-100 px-3">
        <span className="block truncate text-slate-900">{w.accountName}</span>
        <span className="block text-xs text-slate-600 tabular-nums">
          {maskAccountNumber(w.accountNumber)}
        </span>
      </td>
      <td className="border-b border-slate-100 px-3">
        <span className="block truncate font-medium text-slate-900">{w.originatorName}</span>
        <span className="block truncate font-mono text-xs text-slate-600">{w.paymentId}</span>
      </td>
      <td className="border-b border-slate-100 px-3">
        <span className="block truncate text-slate-900">{w.sendingBankName}</span>
        <span className="block text-xs text-slate-600 tabular-nums">{w.sendingBankId}</span>
      </td>
      <td className="border-b border-slate-100 px-3">
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
