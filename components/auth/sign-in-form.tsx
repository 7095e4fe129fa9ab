"use client";
// The sign-in form: e-mail and password, then the authenticator code when the account has one.
// Talks to next-auth's own endpoints (CSRF token, credentials callback) with no client library.
import { useEffect, useId, useRef, useState } from "react";

const MESSAGES: Record<string, string> = {
  invalid: "The e-mail or password is incorrect.",
  disabled: "This account is disabled. Ask an administrator to enable it.",
  totp_invalid: "That code did not match. Enter the current 6-digit code from your authenticator app.",
  rate_limited: "Too many sign-in attempts from this network. Wait a minute, then try again.",
  unavailable: "The sign-in service is not answering right now. Try again in a moment.",
};

function messageFor(code: string): string {
  if (code.startsWith("locked")) {
    const minutes = Number(code.split(":")[1]) || 30;
    return `This account is locked after 10 failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or ask an administrator.`;
  }
  return MESSAGES[code] ?? "Sign-in failed. Check your details and try again.";
}

/** Only paths on this site: never an absolute or protocol-relative address. */
function safeDestination(raw: string | null): string {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/accounts";
  return raw;
}

export function SignInForm({ notice, callbackUrl }: { notice?: string; callbackUrl?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [needCode, setNeedCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const ids = { email: useId(), password: useId(), code: useId(), error: useId(), codeHint: useId() };

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  useEffect(() => {
    if (needCode) codeRef.current?.focus();
  }, [needCode]);

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    if (busy) return;
    setError(null);
    if (!email.trim() || !password) {
      setError("Enter your work e-mail and password.");
      return;
    }
    setBusy(true);
    try {
      const csrf = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as {
        csrfToken: string;
      };
      const destination = safeDestination(callbackUrl ?? null);
      const res = await fetch("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          csrfToken: csrf.csrfToken,
          email: email.trim(),
          password,
          totp: needCode ? code.trim() : "",
          callbackUrl: destination,
          json: "true",
        }),
      });
      const body = (await res.json().catch(() => ({}))) as { url?: string };
      const url = body.url ? new URL(body.url, window.location.origin) : null;
      const failure = url?.searchParams.get("error");
      // next-auth answers 302-as-JSON either way: the error parameter of the URL tells failure.
      if (failure || !url) {
        const reason = failure ?? "unavailable";
        if (reason === "totp_required") {
          setNeedCode(true);
          setError(null);
        } else {
          if (reason === "totp_invalid") setCode("");
          setError(messageFor(reason));
        }
        return;
      }
      window.location.assign(destination);
    } catch {
      setError("The sign-in service could not be reached. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  const input =
    "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-800/30 aria-[invalid=true]:border-red-700";

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-5"
      aria-describedby={error ? ids.error : undefined}
    >
      {notice && !error ? (
        <div
          role="status"
          className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900"
        >
          {notice}
        </div>
      ) : null}
      {error ? (
        <div
          id={ids.error}
          ref={errorRef}
          tabIndex={-1}
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 focus:outline-none"
        >
          <span className="font-semibold">Could not sign in. </span>
          {error}
        </div>
      ) : null}
      <div>
        <label htmlFor={ids.email} className="block text-sm font-medium text-slate-800">
          Work e-mail
        </label>
        <input
          id={ids.email}
          name="email"
          type="email"
          autoComplete="username"
          // biome-ignore lint/a11y/noAutofocus: the page exists to fill this field in; keyboard users start here
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          readOnly={needCode}
          aria-invalid={!!error && !needCode}
          className={input}
        />
      </div>
      <div>
        <label htmlFor={ids.password} className="block text-sm font-medium text-slate-800">
          Password
        </label>
        <input
          id={ids.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          readOnly={needCode}
          aria-invalid={!!error && !needCode}
          className={input}
        />
      </div>
      {needCode ? (
        <div>
          <label htmlFor={ids.code} className="block text-sm font-medium text-slate-800">
            Authenticator code
          </label>
          <p id={ids.codeHint} className="mt-0.5 text-sm text-slate-600">
            Enter the 6-digit code from your authenticator app.
          </p>
          <input
            id={ids.code}
            ref={codeRef}
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
            aria-describedby={ids.codeHint}
            aria-invalid={!!error}
            className={`${input} tracking-[0.4em] tabular-nums`}
          />
        </div>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className="flex w-full justify-center rounded-md bg-blue-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-800 disabled:cursor-wait disabled:opacity-70"
      >
        {busy ? "Signing in…" : needCode ? "Verify and sign in" : "Sign in"}
      </button>
    </form>
  );
}
