"use client";
import type { ReactNode } from "react";
import { QueryErrorState } from "@/components/ui/error-state.tsx";
import { LoadingRegion, Skeleton } from "@/components/ui/skeleton.tsx";

/** What the switch reads of a list's query (a useQuery result). */
type ListQuery = {
  isPending: boolean;
  isFetching: boolean;
  data: unknown;
  refetch: () => unknown;
} & ({ isError: true; error: Error } | { isError: false; error: null });

/**
 * A list a query reads, inside its card: placeholder rows until the first answer; the failure
 * with its retry while there is no answer to show (a failed refresh keeps the last list in
 * sight); the empty state when the answer holds nothing; else the list.
 */
export function QueryState({
  query,
  loading,
  errorTitle,
  isEmpty,
  empty,
  children,
}: {
  query: ListQuery;
  /** Announced while the first answer is awaited. */
  loading: string;
  errorTitle: string;
  isEmpty: boolean;
  empty: ReactNode;
  children: ReactNode;
}) {
  if (query.isPending)
    return (
      <LoadingRegion label={loading} className="space-y-2 p-5">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </LoadingRegion>
    );
  if (query.isError && query.data === undefined)
    return (
      <div className="p-5">
        <QueryErrorState title={errorTitle} query={query} />
      </div>
    );
  return isEmpty ? empty : children;
}
