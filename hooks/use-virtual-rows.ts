"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useRef } from "react";

/** The sticky header's height: it sits inside the scroll box, above the first row. */
const HEADER_HEIGHT = 40;

/**
 * Scrolls a box of fixed-height rows under a sticky header just enough to show row `index`. The
 * place follows from the heights alone, and the box is read before anything is written, so the
 * read finds the layout clean and forces none.
 */
export function scrollRowIntoBox(box: HTMLElement, index: number, rowHeight: number, headHeight: number) {
  const top = headHeight + index * rowHeight;
  const bottom = top + rowHeight;
  const { scrollTop, clientHeight } = box;
  if (top < scrollTop + headHeight) box.scrollTop = top - headHeight;
  else if (bottom > scrollTop + clientHeight) box.scrollTop = bottom - clientHeight;
}

/**
 * Focuses row `index` of a virtual table once it is rendered: now, or over the next frames while
 * the virtualizer follows a scroll; a later request (`pending` holds the latest) wins.
 */
export function focusWhenRendered(
  box: HTMLElement,
  index: number,
  pending: { current: number | null },
  options?: FocusOptions,
) {
  pending.current = index;
  const attempt = (n: number) => {
    if (pending.current !== index) return;
    const el = box.querySelector<HTMLElement>(`[data-row-index="${index}"]`);
    if (el) {
      el.focus(options);
      pending.current = null;
    } else if (n < 10) requestAnimationFrame(() => attempt(n + 1));
  };
  attempt(0);
}

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
      const box = scrollRef.current;
      if (!box) return i;
      const options = keepScroll ? { preventScroll: true } : undefined;
      const shown = box.querySelector<HTMLElement>(`[data-row-index="${i}"]`);
      if (keepScroll && shown) {
        const r = shown.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        if (r.top >= b.top + HEADER_HEIGHT && r.bottom <= b.bottom) {
          focusWhenRendered(box, i, pendingFocus, options);
          return i;
        }
      }
      virtualizer.scrollToIndex(i, { align: "auto" });
      focusWhenRendered(box, i, pendingFocus, options);
      return i;
    },
    [count, virtualizer, keepScroll],
  );

  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return { scrollRef, items, padTop, padBottom, focusRow };
}
