"use client";
// The account queries as options, so a page can start loading its data before the code that
// shows it has arrived (queryClient.prefetchQuery) and that code reads the same query (useQuery).
import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { AccountDetailResponse, AccountsResponse } from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";

/** Every account of the subscription key with balances and totals (GET /api/accounts). */
export const accountsQuery = () =>
  queryOptions({
    queryKey: queryKeys.accounts(),
    queryFn: ({ signal }) => apiFetch<typeof AccountsResponse>("/api/accounts", { signal }),
  });

/** One account's full balance record and cash-manager balance (GET /api/accounts/[accountNumber]). */
export const accountQuery = (accountNumber: string) =>
  queryOptions({
    queryKey: queryKeys.account(accountNumber),
    queryFn: ({ signal }) =>
      apiFetch<typeof AccountDetailResponse>(`/api/accounts/${encodeURIComponent(accountNumber)}`, {
        signal,
      }),
  });
