"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { HistoryResponse } from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";

/** Transaction history of one account over a range (GET /api/accounts/[accountNumber]/history). */
export function useHistory(
  accountNumber: string,
  from: string,
  to: string,
  order: "A" | "D",
  enabled = true,
) {
  return useQuery({
    queryKey: queryKeys.history(accountNumber, from, to, order),
    queryFn: ({ signal }) => {
      const qs = new URLSearchParams({ from, to, order });
      return apiFetch<typeof HistoryResponse>(
        `/api/accounts/${encodeURIComponent(accountNumber)}/history?${qs.toString()}`,
        { signal },
      );
    },
    enabled,
    // Keep the old rows on screen while a new range of the same account loads, instead of
    // flashing a skeleton; another account's rows are never shown in its place.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === accountNumber ? keepPreviousData(previous) : undefined,
  });
}
