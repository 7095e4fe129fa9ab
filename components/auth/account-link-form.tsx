"use client";
// /account-link: the page a one-time link opens. The token is read from the address's fragment
// (never sent in a request line, so no log holds it), checked with the server, then the person
// chooses their password (an invitation or a reset) or confirms a lost device's removal with it.
import { useEffect, useState } from "react";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-rules.ts";
import type {
  AccountLinkInfo,
  UseAccountLinkBody,
  UseAccountLinkResponse,
} from "@/lib/dashboard-api/admin.ts";
import { apiFetch, failureMessage } from "@/lib/dashboard-api/fetch.ts";

const loadBody = () =>
  import("@/lib/dashboard-api/admin.ts").then((m): typeof UseAccountLinkBody => m.UseAccountLinkBody);

type State =
  | { step: "reading" }
  | { step: "broken"; text: string }
  | { step: "ready"; info: AccountLinkInfo; token: string }
  | { step: "done"; purpose: UseAccountLinkResponse["purpose"] };

const post = (url: string, body: unknown) =>
  apiFetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

export function AccountLinkForm() {
  const [state, setState] = useState<State>({ step: "reading" });
  const form = useZodForm(loadBody, {
    defaultValues: { token: "" },
  });

  useEffect(() => {
    const token = window.location.hash.replace(/^#/, "");
    if (!token) {
      setState({ step: "broken", text: "This address holds no link. Open the link from your e-mail." });
      return;
    }
    // The fragment leaves the address bar: it is not kept in the history or shown over a shoulder.
    window.history.replaceState(null, "", window.location.pathname);
    post("/api/account-link", { token })
      .then((answer) => {
        const info = answer as AccountLinkInfo;
        // Only the fields of this link's purpose: the other ones stay unset, not empty.
        form.reset(
          info.purpose === "totp_removal"
            ? { token, currentPassword: "" }
            : { token, newPassword: "", confirmPassword: "" },
        );
        setState({ step: "ready", info, token });
      })
      .catch((e) =>
        setState({ step: "broken", text: failureMessage(e, "This link cannot be checked now.") }),
      );
  }, [form]);

  if (state.step === "reading") return <p role="status">Checking your link…</p>;
  if (state.step === "broken")
    return (
      <p role="alert" className="text-sm text-rose-800">
        {state.text}
      </p>
    );
  if (state.step === "done")
    return (
      <div role="status" className="space-y-3 text-sm text-slate-800">
        <p>
          {state.purpose === "totp_removal"
            ? "Your two-step sign-in device was removed. Sign in with your password, then set up a new device from your profile."
            : "Your password is set. Sign in with it now."}
        </p>
        <a className="font-medium text-brand-700 underline" href="/sign-in">
          Go to sign-in
        </a>
      </div>
    );

  const removal = state.info.purpose === "totp_removal";
  const until = new Date(state.info.expiresAt).toLocaleString("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
  });
  return (
    <Form
      form={form}
      aria-label={removal ? "Remove your lost two-step device" : "Choose your password"}
      onSubmit={async (values) => {
        const body = removal
          ? { token: state.token, currentPassword: values.currentPassword }
          : { token: state.token, newPassword: values.newPassword, confirmPassword: values.confirmPassword };
        const out = (await post("/api/account-link/use", body)) as UseAccountLinkResponse;
        setState({ step: "done", purpose: out.purpose });
      }}
    >
      <p className="text-sm text-slate-700">
        For <span className="font-medium">{state.info.email}</span>. This link works once, until {until}.
      </p>
      <FormAlert />
      {removal ? (
        <TextField
          name="currentPassword"
          label="Your password"
          type="password"
          autoComplete="current-password"
        />
      ) : (
        <>
          <TextField
            name="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          />
          <TextField
            name="confirmPassword"
            label="New password again"
            type="password"
            autoComplete="new-password"
          />
        </>
      )}
      <SubmitButton busyLabel="Saving…">
        {removal ? "Remove the lost device" : "Save my password"}
      </SubmitButton>
    </Form>
  );
}
