"use client";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { AccountsSkeleton } from "@/components/accounts/accounts-skeleton.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { useHydrated } from "@/hooks/use-hydrated.ts";

const AccountsView = lazy(() => import("./accounts-view.tsx").then((m) => ({ default: m.AccountsView })));

/**
 * The accounts page's first paint is its skeleton: the page's code (cards, totals, chart, the
 * query hook) arrives as its own chunk while the accounts are fetched, both started at once.
 */
export function AccountsLoader() {
  const client = useQueryClient();
  const hydrated = useHydrated();
  useEffect(() => {
    void client.prefetchQuery(accountsQuery());
  }, [client]);
  // The server renders the skeleton; so does the browser until hydration is over, whatever the
  // prefetch has already brought (a view drawn from it would not match the server's HTML).
  if (!hydrated) return <AccountsSkeleton />;
  return (
    <Suspense fallback={<AccountsSkeleton />}>
      <AccountsView />
    </Suspense>
  );
}
