"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { HistoryItem, HistoryResponse } from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { daysRead, historyWindows } from "@/lib/history/pages.ts";

/**
 * The history of any range, read a month at a time (GET /api/accounts/[n]/history per window)
 * as the reader asks for more: the first page at once, each next one on fetchNextPage. What has
 * been read so far is the items, with how many days of the range that covers.
 */
export function usePagedHistory(
  accountNumber: string,
  from: string,
  to: string,
  order: "A" | "D",
  enabled = true,
) {
  const windows = useMemo(() => (enabled ? historyWindows(from, to, order) : []), [from, to, order, enabled]);
  const query = useInfiniteQuery({
    // The range's own key (from, to, order): live updates refresh it where it reaches today.
    queryKey: queryKeys.pagedHistory(accountNumber, from, to, order),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => {
      const w = windows[pageParam];
      const qs = new URLSearchParams({ from: w.from, to: w.to, order });
      return apiFetch<typeof HistoryResponse>(
        `/api/accounts/${encodeURIComponent(accountNumber)}/history?${qs.toString()}`,
        { signal },
      );
    },
    getNextPageParam: (_last, pages) => (pages.length < windows.length ? pages.length : undefined),
    enabled: enabled && windows.length > 0,
    // Keep the old rows on screen while a new range of the same account loads, instead of
    // flashing a skeleton; another account's rows are never shown in its place.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === accountNumber ? previous : undefined,
  });
  const pages = query.data?.pages;
  const items = useMemo<HistoryItem[] | undefined>(() => pages?.flatMap((p) => p.items), [pages]);
  const truncatedDays = useMemo(() => pages?.flatMap((p) => p.truncatedDays) ?? [], [pages]);
  const dayByDay = pages?.some((p) => p.source === "extendedhistory") ?? false;
  const pagesRead = pages?.length ?? 0;
  return {
    ...query,
    items,
    truncatedDays,
    dayByDay,
    notice: pages?.find((p) => p.notice)?.notice,
    totalDays: daysRead(windows, windows.length),
    daysRead: daysRead(windows, pagesRead),
    complete: !!pages && pagesRead >= windows.length,
    /** The range read so far: from..to of the windows done, for captions. */
    readRange:
      pagesRead > 0
        ? order === "D"
          ? { from: windows[pagesRead - 1].from, to: windows[0].to }
          : { from: windows[0].from, to: windows[pagesRead - 1].to }
        : null,
  };
}
