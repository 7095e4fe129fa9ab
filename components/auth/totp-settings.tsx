"use client";
// Second factor on /profile: start set-up (secret and otpauth link), confirm with a code, or turn off.
import { useId, useState } from "react";
import type { ApiErrorBody, TotpEnrolment } from "@/lib/dashboard-api/index.ts";

async function send(method: string, url: string, body?: unknown): Promise<{ ok: boolean; data: unknown }> {
  const res = await fetch(url, {
    method,
    headers: body ? { "Content-Type": "application/json" } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  return { ok: res.ok, data: await res.json().catch(() => null) };
}

const errorText = (data: unknown) => {
  const e = (data as ApiErrorBody | null)?.error;
  return e
    ? `${e.message}${e.fields?.length ? ` (${e.fields.map((f) => `${f.field} ${f.message}`).join("; ")})` : ""}`
    : "Something went wrong. Try again.";
};

export function TotpSettings({ initiallyEnabled }: { initiallyEnabled: boolean }) {
  const [enabled, setEnabled] = useState(initiallyEnabled);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { code: useId(), secret: useId() };

  async function run(fn: () => Promise<void>) {
    setBusy(true);
    setMessage(null);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  }

  const start = () =>
    run(async () => {
      const r = await send("POST", "/api/profile/totp");
      if (!r.ok) return setMessage({ kind: "error", text: errorText(r.data) });
      setEnrolment(r.data as TotpEnrolment);
      setCode("");
    });

  const confirm = (e: React.FormEvent) => {
    e.preventDefault();
    return run(async () => {
      const r = await send("POST", "/api/profile/totp/confirm", { code });
      if (!r.ok) return setMessage({ kind: "error", text: errorText(r.data) });
      setEnabled(true);
      setEnrolment(null);
      setCode("");
      setMessage({
        kind: "ok",
        text: "Two-step sign-in is on. From now on, sign-in asks for a code from your app.",
      });
    });
  };

  const turnOff = (e: React.FormEvent) => {
    e.preventDefault();
    return run(async () => {
      const r = await send("DELETE", "/api/profile/totp", { code });
      if (!r.ok) return setMessage({ kind: "error", text: errorText(r.data) });
      setEnabled(false);
      setCode("");
      setMessage({ kind: "ok", text: "Two-step sign-in is off." });
    });
  };

  const input =
    "mt-1 block w-40 rounded-md border border-slate-300 px-3 py-2 tracking-[0.3em] tabular-nums text-slate-900 focus:border-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-800/30";
  const primary =
    "rounded-md bg-blue-900 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-800 disabled:opacity-60";

  return (
    <section
      aria-labelledby="totp-heading"
      className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="totp-heading" className="text-lg font-semibold text-slate-900">
        Two-step sign-in
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Status: <strong className="text-slate-900">{enabled ? "On" : "Off"}</strong>. With it on, signing in
        also needs a 6-digit code from an authenticator app.
      </p>
      {message ? (
        <p
          role={message.kind === "error" ? "alert" : "status"}
          className={`mt-4 rounded-md px-3 py-2 text-sm ${message.kind === "error" ? "border border-red-200 bg-red-50 text-red-800" : "border border-green-200 bg-green-50 text-green-900"}`}
        >
          {message.text}
        </p>
      ) : null}

      {!enabled && !enrolment ? (
        <button type="button" onClick={start} disabled={busy} className={`mt-4 ${primary}`}>
          Set up two-step sign-in
        </button>
      ) : null}

      {!enabled && enrolment ? (
        <form onSubmit={confirm} className="mt-4 space-y-4">
          <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
            <li>
              In your authenticator app, add an account with this set-up key:
              <div
                id={ids.secret}
                className="mt-1 break-all rounded bg-slate-100 px-2 py-1 font-mono text-slate-900"
              >
                {enrolment.secret}
              </div>
            </li>
            <li>
              Or open this link on the device that has the app:{" "}
              <a href={enrolment.otpauthUrl} className="break-all text-blue-800 underline">
                {enrolment.otpauthUrl}
              </a>
            </li>
            <li>Enter the 6-digit code the app shows to confirm.</li>
          </ol>
          <div>
            <label htmlFor={ids.code} className="block text-sm font-medium text-slate-800">
              Code from your app
            </label>
            <input
              id={ids.code}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
              className={input}
            />
          </div>
          <button type="submit" disabled={busy || code.length !== 6} className={primary}>
            Confirm and turn on
          </button>
        </form>
      ) : null}

      {enabled ? (
        <form onSubmit={turnOff} className="mt-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={ids.code} className="block text-sm font-medium text-slate-800">
              Current code, to turn it off
            </label>
            <input
              id={ids.code}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
              className={input}
            />
          </div>
          <button
            type="submit"
            disabled={busy || code.length !== 6}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-800 disabled:opacity-60"
          >
            Turn off two-step sign-in
          </button>
        </form>
      ) : null}
    </section>
  );
}
