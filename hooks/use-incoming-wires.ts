"use client";
// The approval queue and its decisions. The queue polls every few seconds, so new wires appear
// without a reload; when the bank cannot be reached React Query keeps the last list (shown stale).
// A poll names the version of the list the page holds, and an unchanged list costs the page nothing
// but the time it was read: no download, no parse, no render of a thousand rows.
import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, apiFetchIfChanged } from "@/lib/dashboard-api/fetch.ts";
import type {
  IncomingWireDecisionRequest,
  IncomingWireDecisionResponse,
  IncomingWiresResponse,
} from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";

export const QUEUE_POLL_MS = 4_000;
const QUEUE_PATH = "/api/incoming-wires";

/** Per client, the version of the list it holds as the server sent it (none once a decision changed it). */
const versions = new WeakMap<QueryClient, string>();

export const incomingWiresQuery = () =>
  queryOptions({
    queryKey: queryKeys.incomingWires(),
    queryFn: async ({ signal, client, queryKey }) => {
      const held = client.getQueryData<IncomingWiresResponse>(queryKey);
      const version = held ? versions.get(client) : undefined;
      const r = await apiFetchIfChanged<typeof IncomingWiresResponse>(QUEUE_PATH, version ?? null, {
        signal,
      });
      if (!r.changed) {
        // A 304 answers only the version sent, which is held's.
        if (!held) throw new Error("the queue answered 'unchanged' to a page that holds no list");
        return { ...held, asOf: r.headers.get("X-As-Of") ?? held.asOf };
      }
      if (r.version) versions.set(client, r.version);
      else versions.delete(client);
      return r.data;
    },
    refetchInterval: QUEUE_POLL_MS,
    // A queue is only useful when current: never serve it from the 30 s default without asking.
    staleTime: 0,
  });

export interface DecisionVariables extends IncomingWireDecisionRequest {
  paymentId: string;
}

/** Sends one decision; on success the wire's row changes at once, then the queue is read again. */
export function useDecideIncomingWire() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, ...body }: DecisionVariables) =>
      apiFetch<typeof IncomingWireDecisionResponse>(`/api/incoming-wires/${encodeURIComponent(paymentId)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
    onSuccess: (r, v) => {
      // The list the page holds is no longer the one the server sent: the next read takes it whole.
      versions.delete(qc);
      qc.setQueryData<IncomingWiresResponse>(queryKeys.incomingWires(), (old) => {
        if (!old) return old;
        if (r.outcome === "sent")
          return { ...old, wires: old.wires.filter((w) => w.paymentId !== v.paymentId) };
        return {
          ...old,
          wires: old.wires.map((w) =>
            w.paymentId !== v.paymentId
              ? w
              : r.outcome === "queued"
                ? { ...w, state: "queued" as const, pendingAction: v.action }
                : { ...w, state: "awaiting_second_approval" as const, votes: r.votes },
          ),
        };
      });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.incomingWires() }),
  });
}
