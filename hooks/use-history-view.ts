"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { todayIsoDay } from "@/lib/format/dates.ts";
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
  const timeZone = useBusinessTimeZone();
  const view = useMemo(() => parseHistoryView(params, todayIsoDay(new Date(), timeZone)), [params, timeZone]);
  const update = useCallback(
    (patch: Partial<HistoryView>) => {
      const current = parseHistoryView(
        new URLSearchParams(window.location.search),
        todayIsoDay(new Date(), timeZone),
      );
      const next = { ...current, ...patch };
      window.history.replaceState(null, "", `${pathname}?${historyViewToSearch(next)}`);
    },
    [pathname, timeZone],
  );
  return [view, update];
}
