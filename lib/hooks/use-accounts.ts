"use client";
import { useQuery } from "@tanstack/react-query";
import type { AccountsResponse } from "../dashboard-api/types.ts";
import { apiFetch } from "./api-fetch.ts";
import { queryKeys } from "./query-keys.ts";

/** Every account of the subscription key with balances and totals (GET /api/accounts). */
export function useAccounts() {
  return useQuery({
    queryKey: queryKeys.accounts(),
    queryFn: ({ signal }) => apiFetch<AccountsResponse>("/api/accounts", { signal }),
  });
}
