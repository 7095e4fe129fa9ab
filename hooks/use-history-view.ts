"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { useBusinessToday } from "@/components/session/business-time-zone.tsx";
import { type HistoryView, historyViewToSearch, parseHistoryView } from "@/lib/history/filters.ts";

/**
 * The history view (range, order, filters) read from and written to the URL. Writes use
 * history.replaceState, which Next keeps in step with useSearchParams, so typing in a filter
 * does not add a history entry or ask the server for anything.
 */
export function useHistoryView(): [HistoryView, (patch: Partial<HistoryView>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  // The default range ends on the bank's today, not the browser's.
  const today = useBusinessToday();
  const view = useMemo(() => parseHistoryView(params, today()), [params, today]);
  const update = useCallback(
    (patch: Partial<HistoryView>) => {
      const current = parseHistoryView(new URLSearchParams(window.location.search), today());
      const next = { ...current, ...patch };
      window.history.replaceState(null, "", `${pathname}?${historyViewToSearch(next)}`);
    },
    [pathname, today],
  );
  return [view, update];
}
