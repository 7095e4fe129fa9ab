"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useRef } from "react";

/** The sticky header's height: it sits inside the scroll box, above the first row. */
const HEADER_HEIGHT = 40;

/**
 * A long table with only the rows in view in the DOM, and keyboard focus that waits for a row
 * to be rendered. `keepScroll`: a row already in view takes focus without moving the list.
 */
export function useVirtualRows({
  count,
  rowHeight,
  overscan,
  keepScroll = false,
}: {
  count: number;
  rowHeight: number;
  overscan: number;
  keepScroll?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<number | null>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    scrollPaddingStart: HEADER_HEIGHT,
  });

  /** Scrolls to a row (clamped to the list) and focuses it; returns its index, null when empty. */
  const focusRow = useCallback(
    (index: number): number | null => {
      if (!count) return null;
      const i = Math.max(0, Math.min(count - 1, index));
      pendingFocus.current = i;
      const rowElement = () => scrollRef.current?.querySelector<HTMLElement>(`[data-row-index="${i}"]`);
      const focus = (el: HTMLElement) => {
        el.focus(keepScroll ? { preventScroll: true } : undefined);
        pendingFocus.current = null;
      };
      const box = scrollRef.current;
      const shown = rowElement();
      if (keepScroll && box && shown) {
        const r = shown.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        if (r.top >= b.top + HEADER_HEIGHT && r.bottom <= b.bottom) {
          focus(shown);
          return i;
        }
      }
      virtualizer.scrollToIndex(i, { align: "auto" });
      // The row may not be rendered yet: try now and again over the next few frames.
      const tryFocus = (attempt: number) => {
        if (pendingFocus.current !== i) return;
        const el = rowElement();
        if (el) focus(el);
        else if (attempt < 10) requestAnimationFrame(() => tryFocus(attempt + 1));
      };
      tryFocus(0);
      return i;
    },
    [count, virtualizer, keepScroll],
  );

  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return { scrollRef, items, padTop, padBottom, focusRow };
}
