"use client";
// Live balances: listens to /api/events and, when the bank reports a balance change, re-reads the
// account list, that account and its history where the range reaches today (React Query keeps
// everything else). A small status in the
// header says whether updates are live; the browser reconnects by itself after a drop.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";

type State = "connecting" | "live" | "off";

export function LiveBalances() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>("connecting");

  useEffect(() => {
    if (typeof EventSource === "undefined") {
      setState("off");
      return;
    }
    const source = new EventSource("/api/events");
    source.onopen = () => setState("live");
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "off" : "connecting");
    source.addEventListener("balance", (e) => {
      const { accountNumber } = JSON.parse((e as MessageEvent<string>).data) as { accountNumber: string };
      queryClient.invalidateQueries({ queryKey: queryKeys.accounts(), exact: true });
      queryClient.invalidateQueries({ queryKey: queryKeys.account(accountNumber), exact: true });
      // The account's history where its range reaches today (a day of slack for the bank's time
      // zone); past ranges cannot have changed and may be large.
      const since = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      queryClient.invalidateQueries({
        predicate: (q) => {
          const [root, account, kind, range] = q.queryKey as [string, string, string, { to?: string }?];
          return (
            root === "accounts" &&
            account === accountNumber &&
            kind === "history" &&
            (range?.to ?? "") >= since
          );
        },
      });
    });
    return () => source.close();
  }, [queryClient]);

  if (state !== "live") return null;
  return (
    <span
      className="flex items-center gap-1.5 text-xs text-brand-100"
      title="Balances update as the bank reports changes"
    >
      <span aria-hidden="true" className="size-2 rounded-full bg-emerald-400" />
      Live
    </span>
  );
}
