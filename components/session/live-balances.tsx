"use client";
// Live balances: listens to /api/events and, when the bank reports a balance change, re-reads the
// account list, that account, its history where the range reaches today and the notifications
// panel (React Query keeps everything else); an alert the change fired shows as a toast. A small
// status in the header says whether updates are live, and turns amber while the bank cannot be
// reached (a read answered bank_unavailable, until one succeeds); the browser reconnects by itself
// after a drop, and its Last-Event-ID brings what it missed meanwhile.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useToast } from "@/components/ui/toast.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import type { LiveBalanceEvent } from "@/lib/dashboard-api/alerts.ts";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { accountInWords, formatUsd } from "@/lib/format/money.ts";

type State = "connecting" | "live" | "off";

export function LiveBalances() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>("connecting");
  const [bankDown, setBankDown] = useState(false);
  const toast = useToast();

  // The stream comes from the dashboard, which stays up when the bank does not: the reads say
  // whether the bank answers. The first read that fails for it turns the status amber.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== "updated") return;
        if (event.action.type === "success") setBankDown(false);
        else if (
          event.action.type === "error" &&
          event.action.error instanceof ApiError &&
          event.action.error.code === "bank_unavailable"
        )
          setBankDown(true);
      }),
    [queryClient],
  );

  useEffect(() => {
    if (typeof EventSource === "undefined") {
      setState("off");
      return;
    }
    const source = new EventSource("/api/events");
    source.onopen = () => {
      setState("live");
      // What waits may have changed while the stream was down (no event replays it): read it again.
      queryClient.invalidateQueries({ queryKey: queryKeys.inbox() });
    };
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "off" : "connecting");
    // Too far behind to replay: everything may have changed.
    source.addEventListener("reset", () => queryClient.invalidateQueries());
    // What waits for approval may have changed: the inbox, its counts and the two queues are read again.
    source.addEventListener("inbox", () => {
      queryClient.invalidateQueries({ queryKey: queryKeys.inbox() });
      queryClient.invalidateQueries({ queryKey: queryKeys.incomingWires() });
      queryClient.invalidateQueries({ queryKey: queryKeys.drafts() });
    });
    source.addEventListener("balance", (e) => {
      const event = JSON.parse((e as MessageEvent<string>).data) as LiveBalanceEvent;
      const { accountNumber } = event;
      queryClient.invalidateQueries({ queryKey: queryKeys.notifications() });
      // A rule's armed/triggered state may have moved with the balance.
      queryClient.invalidateQueries({ queryKey: queryKeys.alertRules() });
      // An alert names the account as every page does; the list is read first when no page has yet.
      if (event.alerts.length)
        void queryClient
          .ensureQueryData(accountsQuery())
          .then((d) => d.accounts.find((a) => a.accountNumber === accountNumber)?.name)
          .catch(() => undefined)
          .then((name) => {
            for (const a of event.alerts)
              toast({
                tone: "warning",
                title: `Balance alert: ${accountInWords(accountNumber, name)}`,
                body: `Available balance ${a.kind === "below" ? "fell below" : "rose above"} ${formatUsd(a.thresholdCents)}: now ${formatUsd(event.availableCents)} (was ${formatUsd(event.previousCents)}).`,
              });
          });
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
  }, [queryClient, toast]);

  if (bankDown)
    return (
      <span
        role="status"
        className="flex items-center gap-1.5 text-xs font-medium text-amber-200"
        title="The bank cannot be reached: balances may be out of date"
      >
        <span aria-hidden="true" className="size-2 rounded-full bg-amber-400" />
        Bank unreachable
      </span>
    );
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
