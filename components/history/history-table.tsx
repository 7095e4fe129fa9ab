"use client";
import { useCallback, useEffect, useImperativeHandle, useState } from "react";
import {
  DESKTOP_ONLY,
  HISTORY_COLUMNS,
  HISTORY_PHONE_WIDTHS,
  HISTORY_ROW_HEIGHT,
} from "@/components/history/history-columns.ts";
import { cn } from "@/components/ui/cn.ts";
import { Money } from "@/components/ui/money.tsx";
import { SpacerRow } from "@/components/ui/table.tsx";
import { useVirtualRows } from "@/hooks/use-virtual-rows.ts";
import type { HistoryItem } from "@/lib/dashboard-api/index.ts";
import { formatDay } from "@/lib/format/dates.ts";

export interface HistoryTableHandle {
  /** Puts keyboard focus back on a row (after the detail sheet closes). */
  focusRow(index: number): void;
}

function counterpartyLine(item: HistoryItem): string {
  if (item.sen) {
    const who = item.sen.counterpartyName || item.sen.counterpartyAccount;
    return item.sen.memo ? `${who} · ${item.sen.memo}` : who;
  }
  return item.descriptions[1] ?? "";
}

const TH =
  "h-10 border-b border-slate-200 px-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase sm:px-4";
const TD = "border-b border-slate-100 px-2 sm:px-4";

/**
 * The transaction list as a real table. Only the rows in view are in the DOM (react-virtual,
 * with spacer rows above and below), the header stays put while the body scrolls, and one row
 * at a time is in the tab order (roving tabindex): Tab reaches the list once, arrows move
 * within it, Enter or Space opens the row's details.
 */
export function HistoryTable({
  rows,
  caption,
  onOpen,
  onEndReached,
  ref,
}: {
  rows: HistoryItem[];
  caption: string;
  onOpen: (item: HistoryItem, index: number) => void;
  /** Called when the last rows come into view: the panel reads the next page of a long range. */
  onEndReached?: () => void;
  ref?: React.Ref<HistoryTableHandle>;
}) {
  const [active, setActive] = useState(0);
  const {
    scrollRef,
    items: virtualRows,
    padTop,
    padBottom,
    focusRow,
  } = useVirtualRows({
    count: rows.length,
    rowHeight: HISTORY_ROW_HEIGHT,
    overscan: 12,
  });

  // A new filter can leave the active row past the end.
  useEffect(() => {
    if (active > 0 && active >= rows.length) setActive(Math.max(0, rows.length - 1));
  }, [rows.length, active]);

  const focusIndex = useCallback(
    (index: number) => {
      const i = focusRow(index);
      if (i !== null) setActive(i);
    },
    [focusRow],
  );

  useImperativeHandle(ref, () => ({ focusRow: focusIndex }), [focusIndex]);

  const onKeyDown = (e: React.KeyboardEvent<HTMLTableRowElement>, index: number, item: HistoryItem) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / HISTORY_ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: rows.length - 1,
    };
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onOpen(item, index);
    } else if (e.key in moves) {
      e.preventDefault();
      focusIndex(moves[e.key]);
    }
  };

  const lastShown = virtualRows.length ? virtualRows[virtualRows.length - 1].index : -1;
  useEffect(() => {
    if (onEndReached && rows.length && lastShown >= rows.length - 10) onEndReached();
  }, [lastShown, rows.length, onEndReached]);

  return (
    <div
      ref={scrollRef}
      className="relative h-[36rem] max-h-[70vh] overflow-auto overscroll-contain rounded-b-xl border-t border-slate-200"
    >
      <table
        aria-rowcount={rows.length + 1}
        className="history-table w-full table-fixed border-separate border-spacing-0 text-sm sm:min-w-[48rem]"
      >
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          {HISTORY_COLUMNS.map((c) => (
            <col
              key={c.label}
              className={c.phone ? undefined : "hidden sm:table-column"}
              style={
                {
                  "--col-desktop": c.width === "auto" ? "auto" : c.width,
                  "--col-phone": HISTORY_PHONE_WIDTHS[c.label] ?? "auto",
                } as React.CSSProperties
              }
            />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-50">
          <tr aria-rowindex={1}>
            {HISTORY_COLUMNS.map((c) => (
              <th
                key={c.label}
                scope="col"
                className={cn(TH, c.right && "text-right", !c.phone && DESKTOP_ONLY)}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={padTop} />
          {virtualRows.map((v) => {
            const item = rows[v.index];
            return (
              <tr
                key={item.id}
                aria-rowindex={v.index + 2}
                aria-haspopup="dialog"
                data-row-index={v.index}
                tabIndex={v.index === active ? 0 : -1}
                onClick={() => {
                  setActive(v.index);
                  onOpen(item, v.index);
                }}
                onFocus={() => setActive(v.index)}
                onKeyDown={(e) => onKeyDown(e, v.index, item)}
                className={cn(
                  "cursor-pointer hover:bg-brand-50/70 focus-visible:bg-brand-50 focus-visible:outline-offset-[-3px]",
                  v.index % 2 === 1 && "bg-slate-50/60",
                )}
                style={{ height: HISTORY_ROW_HEIGHT }}
              >
                <td className={cn(TD, DESKTOP_ONLY, "whitespace-nowrap text-slate-700 tabular-nums")}>
                  {formatDay(item.date)}
                </td>
                <td className={TD}>
                  <span className="block truncate font-medium text-slate-900">{item.description}</span>
                  <span className="block truncate text-xs text-slate-600">
                    <span className="sm:hidden">
                      {formatDay(item.date)}
                      {item.direction === "debit" ? " · Debit" : " · Credit"}
                      {counterpartyLine(item) ? " · " : ""}
                    </span>
                    {counterpartyLine(item)}
                  </span>
                </td>
                <td
                  className={cn(TD, DESKTOP_ONLY, item.direction === "debit" ? "text-debit" : "text-credit")}
                >
                  {item.direction === "debit" ? "Debit" : "Credit"}
                </td>
                <td className={cn(TD, "text-right font-medium whitespace-nowrap")}>
                  <Money cents={item.amountCents} direction={item.direction} className="block" />
                  <span className="block text-xs font-normal text-slate-600 sm:hidden">
                    Balance <Money cents={item.availableAfterCents} />
                  </span>
                </td>
                <td className={cn(TD, DESKTOP_ONLY, "text-right whitespace-nowrap text-slate-700")}>
                  <Money cents={item.availableAfterCents} />
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
