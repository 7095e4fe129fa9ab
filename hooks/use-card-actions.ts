"use client";
// The actions of a page of cards (a series' pause, a sweep's approval…): each is a request to its
// own route, answered on the page's one status line with the words given for it or the server's
// reason, and the page's list read again after it succeeds.
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { failureMessage, sendJson } from "@/lib/dashboard-api/fetch.ts";

/** What the status line says: what was done, or why it was not. */
export type StatusMessage = { tone: "ok" | "error"; text: string } | null;

/** Runs an action: its route, its body, the words for when it is done, and its method (POST). */
export type RunAction = (path: string, body: unknown, done: string, method?: "POST" | "DELETE") => void;

export function useCardActions(key: QueryKey): {
  message: StatusMessage;
  /** Says what was done elsewhere on the page (a form saved), as an action's success does. */
  say: (text: string) => void;
  run: RunAction;
  busy: boolean;
  /** Reads the page's list again. */
  refresh: () => void;
} {
  const [message, setMessage] = useState<StatusMessage>(null);
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: key });
  const act = useMutation({
    mutationFn: (a: { path: string; body: unknown; method: "POST" | "DELETE"; done: string }) =>
      sendJson(a.method, a.path, a.body).then(() => a.done),
    onSuccess: (done) => {
      setMessage({ tone: "ok", text: done });
      refresh();
    },
    onError: (e) => setMessage({ tone: "error", text: failureMessage(e, "That did not work.") }),
  });
  return {
    message,
    say: (text) => setMessage({ tone: "ok", text }),
    run: (path, body, done, method = "POST") => act.mutate({ path, body, done, method }),
    busy: act.isPending,
    refresh,
  };
}
