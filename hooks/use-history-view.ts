"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { type HistoryView, historyViewToSearch, parseHistoryView } from "@/lib/format/history-filters.ts";

/**
 * The history view (range, order, filters) read from and written to the URL. Writes use
 * history.replaceState, which Next keeps in step with useSearchParams, so typing in a filter
 * does not add a history entry or ask the server for anything.
 */
export function useHistoryView(): [HistoryView, (patch: Partial<HistoryView>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const view = useMemo(() => parseHistoryView(params), [params]);
  const update = useCallback(
    (patch: Partial<HistoryView>) => {
      const next = { ...parseHistoryView(new URLSearchParams(window.location.search)), ...patch };
      window.history.replaceState(null, "", `${pathname}?${historyViewToSearch(next)}`);
    },
    [pathname],
  );
  return [view, update];
}
