"use client";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { AccountsSkeleton } from "./accounts-skeleton.tsx";

const AccountsView = lazy(() => import("./accounts-view.tsx").then((m) => ({ default: m.AccountsView })));

/**
 * The accounts page's first paint is its skeleton: the page's code (cards, totals, chart, the
 * query hook) arrives as its own chunk while the accounts are fetched, both started at once.
 */
export function AccountsLoader() {
  const client = useQueryClient();
  useEffect(() => {
    void client.prefetchQuery(accountsQuery());
  }, [client]);
  return (
    <Suspense fallback={<AccountsSkeleton />}>
      <AccountsView />
    </Suspense>
  );
}
