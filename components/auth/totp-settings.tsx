"use client";
// Second factor on /profile: start set-up (secret and otpauth link), confirm with a code, move it
// to another device (proven by a current code, or the password when the device is lost), or turn off
// (with the password and a current code both).
import { useState } from "react";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { sendJson } from "@/lib/dashboard-api/fetch.ts";
import type {
  TotpCodeBody,
  TotpDisableBody,
  TotpEnrolment,
  TotpStartBody,
  TotpStatus,
} from "@/lib/dashboard-api/session.ts";

// The schema (and zod) loads when the form is first used.
const loadTotpCodeBody = () =>
  import("@/lib/dashboard-api/session.ts").then((m): typeof TotpCodeBody => m.TotpCodeBody);
const loadTotpStartBody = () =>
  import("@/lib/dashboard-api/session.ts").then((m): typeof TotpStartBody => m.TotpStartBody);
const loadTotpDisableBody = () =>
  import("@/lib/dashboard-api/session.ts").then((m): typeof TotpDisableBody => m.TotpDisableBody);

/** The 6-digit code field every step of this section uses. */
function CodeField({ label }: { label: string }) {
  return (
    <TextField
      name="code"
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      className="w-44 [&_input]:tracking-[0.3em] [&_input]:tabular-nums"
    />
  );
}

export function TotpSettings({ initiallyEnabled }: { initiallyEnabled: boolean }) {
  const [enabled, setEnabled] = useState(initiallyEnabled);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const confirmForm = useZodForm(loadTotpCodeBody, { defaultValues: { code: "" } });
  const offForm = useZodForm(loadTotpDisableBody, { defaultValues: { currentPassword: "", code: "" } });
  const replaceForm = useZodForm(loadTotpStartBody, {
    defaultValues: { currentCode: "", currentPassword: "" },
  });

  /** Sends the form to `url`; once it is accepted, two-step sign-in is `on` and `text` says so. */
  const submitTo =
    <V extends TotpCodeBody | TotpDisableBody>(
      method: "POST" | "DELETE",
      url: string,
      on: boolean,
      text: string,
    ) =>
    async (values: V) => {
      setMessage(null);
      await sendJson<typeof TotpStatus>(method, url, values);
      setEnabled(on);
      setEnrolment(null);
      offForm.reset({ currentPassword: "", code: "" });
      setMessage({ kind: "ok", text });
    };

  const startForm = useZodForm(loadTotpStartBody, {
    defaultValues: { currentCode: "", currentPassword: "" },
  });

  return (
    <Panel id="totp-heading" title="Two-step sign-in">
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
        <Form
          form={startForm}
          aria-label="Set up two-step sign-in"
          className="mt-4"
          onSubmit={async (values) => {
            setMessage(null);
            setEnrolment(await sendJson<typeof TotpEnrolment>("POST", "/api/profile/totp", values));
            startForm.reset({ currentCode: "", currentPassword: "" });
            confirmForm.reset({ code: "" });
          }}
        >
          <p className="text-sm text-slate-700">
            Your password proves it is you before a device is attached.
          </p>
          <FormAlert />
          <div className="flex flex-wrap items-end gap-3">
            <TextField
              name="currentPassword"
              label="Your password"
              type="password"
              autoComplete="current-password"
              className="w-64"
            />
            <SubmitButton busyLabel="Checking…">Set up two-step sign-in</SubmitButton>
          </div>
        </Form>
      ) : null}

      {enrolment ? (
        <Form
          form={confirmForm}
          aria-label="Confirm two-step sign-in"
          className="mt-4"
          onSubmit={submitTo<TotpCodeBody>(
            "POST",
            "/api/profile/totp/confirm",
            true,
            enabled
              ? "Two-step sign-in now uses the new device. Codes from the old one no longer work."
              : "Two-step sign-in is on. From now on, sign-in asks for a code from your app.",
          )}
        >
          <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
            <li>
              In your authenticator app, add an account with this set-up key:
              <div className="mt-1 break-all rounded bg-slate-100 px-2 py-1 font-mono text-slate-900">
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
          <FormAlert />
          <CodeField label="Code from your app" />
          <div>
            <SubmitButton busyLabel="Checking…">Confirm and turn on</SubmitButton>
          </div>
        </Form>
      ) : null}

      {enabled && !enrolment ? (
        <Form
          form={replaceForm}
          aria-label="Move two-step sign-in to another device"
          className="mt-4"
          onSubmit={async (values) => {
            setMessage(null);
            setEnrolment(await sendJson<typeof TotpEnrolment>("POST", "/api/profile/totp", values));
            replaceForm.reset({ currentCode: "", currentPassword: "" });
            confirmForm.reset({ code: "" });
          }}
        >
          <p className="text-sm text-slate-700">
            To move it to another device, prove it is you with your password and a current code from your app.
            Lost the device? Ask an administrator to e-mail you a link that removes it.
          </p>
          <FormAlert />
          <div className="flex flex-wrap items-end gap-3">
            <TextField
              name="currentCode"
              label="Current code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="w-44 [&_input]:tracking-[0.3em] [&_input]:tabular-nums"
            />
            <TextField
              name="currentPassword"
              label="Your password"
              type="password"
              autoComplete="current-password"
              className="w-64"
            />
            <SubmitButton variant="secondary" busyLabel="Checking…">
              Move to another device
            </SubmitButton>
          </div>
        </Form>
      ) : null}

      {enabled && !enrolment ? (
        <Form
          form={offForm}
          aria-label="Turn off two-step sign-in"
          className="mt-4"
          onSubmit={submitTo<TotpDisableBody>(
            "DELETE",
            "/api/profile/totp",
            false,
            "Two-step sign-in is off.",
          )}
        >
          <p className="text-sm text-slate-700">
            Turning it off makes signing in need your password alone, so it asks for both: your password and a
            current code from your app.
          </p>
          <FormAlert />
          <div className="flex flex-wrap items-end gap-3">
            <TextField
              name="currentPassword"
              label="Your password"
              type="password"
              autoComplete="current-password"
              className="w-64"
            />
            <CodeField label="Current code, to turn it off" />
            <SubmitButton variant="secondary" busyLabel="Checking…">
              Turn off two-step sign-in
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </Panel>
  );
}
