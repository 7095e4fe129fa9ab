"use client";
// The sign-in form: e-mail and password, then the authenticator code when the account has one.
// Talks to next-auth's own endpoints (CSRF token, credentials callback) with no client library.
// What is typed before the page has hydrated stays (the form kit takes it over), and the button
// waits for the form, so an early Enter neither posts the password in the address nor empties a field.
import { useEffect, useState } from "react";
import * as z from "zod/mini";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { sameOriginPath } from "@/lib/auth/callback-url.ts";

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

const SignInFields = z.object({
  email: z.string().check(z.trim(), z.minLength(1, "Enter your work e-mail.")),
  password: z.string().check(z.minLength(1, "Enter your password.")),
  totp: z.optional(
    z.string().check(
      z.trim(),
      z.refine((s) => s === "" || /^\d{6}$/.test(s), "Enter the 6-digit code."),
    ),
  ),
});

export function SignInForm({ notice, callbackUrl }: { notice?: string; callbackUrl?: string }) {
  const [needCode, setNeedCode] = useState(false);
  const form = useZodForm(SignInFields);

  useEffect(() => {
    if (needCode) form.setFocus("totp");
  }, [needCode, form]);

  const fail = (message: string) =>
    form.setError("root.server", { type: "server", message: `Could not sign in. ${message}` });

  return (
    <Form
      form={form}
      aria-label="Sign in"
      className="gap-5"
      onSubmit={async ({ email, password, totp }) => {
        if (needCode && !totp) {
          form.setError(
            "totp",
            { type: "required", message: "Enter the 6-digit code." },
            { shouldFocus: true },
          );
          return;
        }
        const destination = sameOriginPath(callbackUrl, window.location.origin);
        let url: URL | null;
        try {
          const csrf = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as {
            csrfToken: string;
          };
          const res = await fetch("/api/auth/callback/credentials", {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              csrfToken: csrf.csrfToken,
              email,
              password,
              totp: needCode ? (totp ?? "") : "",
              callbackUrl: destination,
              json: "true",
            }),
          });
          const body = (await res.json().catch(() => ({}))) as { url?: string };
          url = body.url ? new URL(body.url, window.location.origin) : null;
        } catch {
          fail("The sign-in service could not be reached. Check your connection and try again.");
          return;
        }
        // next-auth answers 302-as-JSON either way: the error parameter of the URL tells failure.
        const failure = url?.searchParams.get("error");
        if (failure || !url) {
          const reason = failure ?? "unavailable";
          if (reason === "totp_required") {
            setNeedCode(true);
            return;
          }
          if (reason === "totp_invalid") form.setValue("totp", "");
          fail(messageFor(reason));
          return;
        }
        window.location.assign(destination);
      }}
    >
      {notice && !form.formState.errors.root ? (
        <div
          role="status"
          className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900"
        >
          {notice}
        </div>
      ) : null}
      <FormAlert />
      <TextField
        name="email"
        label="Work e-mail"
        type="email"
        autoComplete="username"
        // The page exists to fill this field in; keyboard users start here.
        autoFocus
        readOnly={needCode}
      />
      <TextField
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        readOnly={needCode}
      />
      {needCode ? (
        <TextField
          name="totp"
          label="Authenticator code"
          hint="Enter the 6-digit code from your authenticator app."
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
        />
      ) : null}
      <SubmitButton busyLabel="Signing in…" className="w-full">
        {needCode ? "Verify and sign in" : "Sign in"}
      </SubmitButton>
    </Form>
  );
}
