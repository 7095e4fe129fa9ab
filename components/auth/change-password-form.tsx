"use client";
import { useState } from "react";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-rules.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { ChangePasswordBody, ChangePasswordResponse } from "@/lib/dashboard-api/session.ts";

// The schema (and zod) loads when the form is first used.
const loadChangePasswordBody = () =>
  import("@/lib/dashboard-api/session.ts").then((m): typeof ChangePasswordBody => m.ChangePasswordBody);

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

/**
 * The current (or temporary) password, then the new one twice. On success, on to the accounts
 * (the page a reset password leads to), or, on the profile (`stay`), an empty form and a word
 * that it is done.
 */
export function ChangePasswordForm({ stay = false }: { stay?: boolean }) {
  const form = useZodForm(loadChangePasswordBody, { defaultValues: EMPTY });
  const [changed, setChanged] = useState(false);
  return (
    <Form
      form={form}
      aria-label={stay ? "Change your password" : "Choose a new password"}
      onSubmit={async (values) => {
        setChanged(false);
        await apiFetch<typeof ChangePasswordResponse>("/api/profile/password", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(values),
        });
        if (!stay) {
          window.location.assign("/accounts");
          return;
        }
        form.reset(EMPTY);
        setChanged(true);
      }}
    >
      <FormAlert />
      {changed ? (
        <p
          role="status"
          className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
        >
          Your password was changed. Use the new one when you next sign in.
        </p>
      ) : null}
      <TextField
        name="currentPassword"
        label={stay ? "Current password" : "Current or temporary password"}
        type="password"
        autoComplete="current-password"
      />
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
      <SubmitButton busyLabel="Saving…">Save the new password</SubmitButton>
    </Form>
  );
}
