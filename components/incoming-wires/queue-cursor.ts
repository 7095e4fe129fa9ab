"use client";
import { useSyncExternalStore } from "react";

/**
 * The queue's focused row, held outside React state so that a j/k step re-renders only what reads
 * it (the row losing focus, the row gaining it, the line naming it), never the page or the table.
 */
export interface QueueCursor {
  get(): number;
  set(index: number): void;
  subscribe(listener: () => void): () => void;
}

export function createQueueCursor(): QueueCursor {
  let index = 0;
  const listeners = new Set<() => void>();
  return {
    get: () => index,
    set(next) {
      if (next === index) return;
      index = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A value derived from the focused row's index; the component re-renders only when it changes. */
export function useCursor<T>(cursor: QueueCursor, select: (index: number) => T): T {
  const read = () => select(cursor.get());
  return useSyncExternalStore(cursor.subscribe, read, read);
}
