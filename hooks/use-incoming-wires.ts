"use client";
// The approval queue and its decisions. The queue polls every few seconds, so new wires appear
// without a reload; when the bank cannot be reached React Query keeps the last list (shown stale).
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type {
  IncomingWireDecisionRequest,
  IncomingWireDecisionResponse,
  IncomingWiresResponse,
} from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";

export const QUEUE_POLL_MS = 4_000;

export const incomingWiresQuery = () =>
  queryOptions({
    queryKey: queryKeys.incomingWires(),
    queryFn: ({ signal }) => apiFetch<typeof IncomingWiresResponse>("/api/incoming-wires", { signal }),
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
