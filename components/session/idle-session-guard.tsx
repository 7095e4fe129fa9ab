"use client";
// Signs staff out after SESSION_IDLE_SECONDS without activity, with a warning and a
// "Stay signed in" button SESSION_IDLE_WARNING_SECONDS before. Activity is reported to the
// server (a next-auth session update), which refuses requests once the session is idle.
import { useCallback, useEffect, useRef, useState } from "react";
import { csrfToken, SignOutFailed, signOut } from "@/components/session/sign-out.ts";
import { formatDuration } from "@/lib/format/durations.ts";

interface SessionTiming {
  idleSeconds: number;
  warningSeconds: number;
  /** ISO instant the server last recorded activity. */
  lastActivity: string;
}

const ACTIVITY_EVENTS = ["pointerdown", "keydown", "wheel", "touchstart", "mousemove"] as const;

/** Tells the server the user is active; false when the session has already ended. */
async function reportActivity(): Promise<boolean> {
  try {
    const r = await fetch("/api/auth/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ csrfToken: await csrfToken(), data: {} }),
      cache: "no-store",
    });
    if (!r.ok) return false;
    const body = (await r.json()) as { user?: unknown };
    return !!body?.user;
  } catch {
    // A network blip is not a sign-out; the next attempt decides.
    return true;
  }
}

function formatRemaining(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${String(s % 60).padStart(2, "0")} s` : `${s} s`;
}

export default function IdleSessionGuard() {
  const [timing, setTiming] = useState<SessionTiming | null>(null);
  const [remaining, setRemaining] = useState<number | null>(null);
  const lastServerActivity = useRef<number>(Date.now());
  const lastLocalActivity = useRef<number>(Date.now());
  const refreshing = useRef(false);
  const ended = useRef(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [signOutFailure, setSignOutFailure] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    fetch("/api/session", { cache: "no-store" })
      .then(async (r) => {
        if (r.status === 401) {
          if (!cancelled) await signOut("idle");
          return;
        }
        if (!r.ok) return;
        const t = (await r.json()) as SessionTiming;
        if (cancelled) return;
        lastServerActivity.current = Date.parse(t.lastActivity) || Date.now();
        setTiming(t);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, []);

  const refresh = useCallback(async () => {
    if (refreshing.current || ended.current) return;
    refreshing.current = true;
    const at = Date.now();
    try {
      if (await reportActivity()) {
        lastServerActivity.current = at;
        setRemaining(null);
      } else {
        ended.current = true;
        await signOut("idle");
      }
    } finally {
      refreshing.current = false;
    }
  }, []);

  // Another tab may have reported activity on the same session: the server's record decides.
  const lastSync = useRef(0);
  const syncing = useRef(false);
  const sync = useCallback(async () => {
    if (syncing.current || ended.current) return;
    syncing.current = true;
    lastSync.current = Date.now();
    try {
      const r = await fetch("/api/session", { cache: "no-store" });
      if (r.status === 401) {
        ended.current = true;
        await signOut("idle");
        return;
      }
      if (!r.ok) return;
      const at = Date.parse(((await r.json()) as SessionTiming).lastActivity);
      if (at > lastServerActivity.current) lastServerActivity.current = at;
    } catch {
      // Unreachable for a moment: the local deadline still applies.
    } finally {
      syncing.current = false;
    }
  }, []);

  const warning = remaining !== null;

  useEffect(() => {
    if (!timing) return;
    // Report activity at most this often; well inside the warning period.
    const reportEveryMs = Math.min(60, timing.idleSeconds / 4) * 1000;
    const onActivity = () => {
      lastLocalActivity.current = Date.now();
      // Once the warning shows, only the button keeps the session: a stray mouse move does not.
      if (warning) return;
      if (Date.now() - lastServerActivity.current >= reportEveryMs) void refresh();
    };
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, onActivity, { passive: true });
    const tick = window.setInterval(() => {
      const deadline = lastServerActivity.current + timing.idleSeconds * 1000;
      const left = (deadline - Date.now()) / 1000;
      if (left <= timing.warningSeconds && Date.now() - lastSync.current >= (left <= 0 ? 1000 : 5000))
        void sync();
      // The server normally ends it first (the sync above); this covers a server that cannot be asked.
      if (left <= -3) {
        if (!ended.current) {
          ended.current = true;
          void signOut("idle");
        }
        return;
      }
      setRemaining(left <= timing.warningSeconds ? Math.max(0, left) : null);
    }, 500);
    return () => {
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, onActivity);
      window.clearInterval(tick);
    };
  }, [timing, warning, refresh, sync]);

  useEffect(() => {
    if (warning) buttonRef.current?.focus();
  }, [warning]);

  if (!warning || remaining === null) return null;
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="idle-warning-title"
      aria-describedby="idle-warning-text"
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/50 p-4"
    >
      <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-xl">
        <h2 id="idle-warning-title" className="text-lg font-semibold text-slate-900">
          Your session is about to end
        </h2>
        <p id="idle-warning-text" className="mt-2 text-sm text-slate-700">
          For your security you will be signed out in{" "}
          <span className="font-semibold tabular-nums">{formatRemaining(remaining)}</span>: sessions end after{" "}
          {formatDuration(timing?.idleSeconds ?? 0)} without activity.
        </p>
        {signOutFailure ? (
          <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
            {signOutFailure}
          </p>
        ) : null}
        <div className="mt-5 flex justify-end gap-3">
          <button
            type="button"
            onClick={() =>
              signOut().catch((e: unknown) =>
                setSignOutFailure(
                  e instanceof SignOutFailed ? e.message : "You are still signed in. Try again.",
                ),
              )
            }
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          >
            Sign out now
          </button>
          <button
            ref={buttonRef}
            type="button"
            onClick={() => void refresh()}
            className="rounded-md bg-blue-900 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          >
            Stay signed in
          </button>
        </div>
      </div>
    </div>
  );
}
