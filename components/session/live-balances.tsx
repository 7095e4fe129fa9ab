"use client";
// Live balances: listens to /api/events and, when the bank reports a balance change, re-reads the
// account list and that account (React Query keeps everything else). A small status in the
// header says whether updates are live; the browser reconnects by itself after a drop.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { queryKeys } from "@/lib/hooks/query-keys.ts";

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
