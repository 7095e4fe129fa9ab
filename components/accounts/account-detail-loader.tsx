"use client";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { accountQuery } from "@/hooks/use-account-queries.ts";
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
  useEffect(() => {
    void client.prefetchQuery(accountQuery(accountNumber));
  }, [client, accountNumber]);
  return (
    <Suspense fallback={<AccountDetailSkeleton />}>
      <AccountDetailView accountNumber={accountNumber} />
    </Suspense>
  );
}
