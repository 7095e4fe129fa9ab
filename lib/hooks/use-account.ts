"use client";
import { useQuery } from "@tanstack/react-query";
import type { AccountDetailResponse } from "../dashboard-api/types.ts";
import { apiFetch } from "./api-fetch.ts";
import { queryKeys } from "./query-keys.ts";

/** One account's full balance record and cash-manager balance (GET /api/accounts/[accountNumber]). */
export function useAccount(accountNumber: string) {
  return useQuery({
    queryKey: queryKeys.account(accountNumber),
    queryFn: ({ signal }) =>
      apiFetch<AccountDetailResponse>(`/api/accounts/${encodeURIComponent(accountNumber)}`, { signal }),
  });
}
