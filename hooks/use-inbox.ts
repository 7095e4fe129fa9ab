"use client";
// The approvals inbox and its counts. Both are read again the moment the live stream says what
// waits may have changed (components/session/live-balances.tsx), and polled as a fallback when the
// stream is off. A poll names the version it holds: an unchanged inbox costs a 304.
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { apiFetchIfChanged } from "@/lib/dashboard-api/fetch.ts";
import type { InboxCount, InboxResponse } from "@/lib/dashboard-api/inbox.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";

/** The fallback poll: the live stream brings changes sooner. */
export const INBOX_POLL_MS = 15_000;

const versions = new WeakMap<QueryClient, Map<string, string>>();

function versioned<T>(view: "items" | "count") {
  return async ({ signal, client }: { signal: AbortSignal; client: QueryClient }): Promise<T> => {
    const key = queryKeys.inbox(view);
    const held = client.getQueryData<T>(key);
    const byView = versions.get(client) ?? new Map<string, string>();
    versions.set(client, byView);
    const r = await apiFetchIfChanged(`/api/inbox?view=${view}`, held ? (byView.get(view) ?? null) : null, {
      signal,
    });
    if (!r.changed) {
      if (!held) throw new Error("the inbox answered 'unchanged' to a page that holds none");
      return held;
    }
    if (r.version) byView.set(view, r.version);
    else byView.delete(view);
    return r.data as T;
  };
}

export const inboxQuery = () =>
  queryOptions({
    queryKey: queryKeys.inbox("items"),
    queryFn: versioned<InboxResponse>("items"),
    refetchInterval: INBOX_POLL_MS,
    staleTime: 0,
  });

export const inboxCountQuery = () =>
  queryOptions({
    queryKey: queryKeys.inbox("count"),
    queryFn: versioned<InboxCount>("count"),
    refetchInterval: INBOX_POLL_MS,
    staleTime: 0,
  });
