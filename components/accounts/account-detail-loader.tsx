"use client";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { accountQuery } from "@/hooks/use-account-queries.ts";
import { useHydrated } from "@/hooks/use-hydrated.ts";
import { AccountDetailSkeleton } from "./account-detail-skeleton.tsx";

const AccountDetailView = lazy(() =>
  import("./account-detail-view.tsx").then((m) => ({ default: m.AccountDetailView })),
);

/**
 * An account page's first paint is its skeleton: the page's code (balances, history table,
 * filters, balance record) arrives as its own chunk while the account is fetched, both started
 * at once.
 */
export function AccountDetailLoader({ accountNumber }: { accountNumber: string }) {
  const client = useQueryClient();
  const hydrated = useHydrated();
  useEffect(() => {
    void client.prefetchQuery(accountQuery(accountNumber));
  }, [client, accountNumber]);
  // The server renders the skeleton; so does the browser until hydration is over, whatever the
  // prefetch has already brought (a view drawn from it would not match the server's HTML).
  if (!hydrated) return <AccountDetailSkeleton />;
  return (
    <Suspense fallback={<AccountDetailSkeleton />}>
      <AccountDetailView accountNumber={accountNumber} />
    </Suspense>
  );
}
