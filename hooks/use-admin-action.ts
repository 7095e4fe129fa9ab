"use client";
// An administrator's action on a list (a user, a waiting change): one at a time, then the list is
// read again, then the page says how it went, so the words and the list agree.
import { useState } from "react";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";

/** What an action came to; `secret` is a temporary password shown once beside the words. */
export type ActionMessage = { kind: "ok" | "error"; text: string; secret?: string } | null;

/** An error in words, with the fields the dashboard refused. */
export function actionErrorText(e: unknown): string {
  if (!(e instanceof ApiError)) return "Something went wrong. Try again.";
  return e.fields.length
    ? `${e.message} ${e.fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`
    : e.message;
}

export function useAdminAction(reload: () => Promise<void> | void) {
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<ActionMessage>(null);
  async function act(run: () => Promise<ActionMessage>) {
    setBusy(true);
    setMsg(null);
    let outcome: ActionMessage;
    try {
      outcome = await run();
    } catch (e) {
      outcome = { kind: "error", text: actionErrorText(e) };
    }
    await reload();
    setBusy(false);
    setMsg(outcome);
  }
  return { busy, msg, setMsg, act };
}
