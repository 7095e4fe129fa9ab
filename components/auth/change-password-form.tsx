"use client";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-rules.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { ChangePasswordBody, ChangePasswordResponse } from "@/lib/dashboard-api/session.ts";

// The schema (and zod) loads when the form is first used.
const loadChangePasswordBody = () =>
  import("@/lib/dashboard-api/session.ts").then((m): typeof ChangePasswordBody => m.ChangePasswordBody);

/** The current (or temporary) password, then the new one twice; on success, on to the accounts. */
export function ChangePasswordForm() {
  const form = useZodForm(loadChangePasswordBody, {
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });
  return (
    <Form
      form={form}
      aria-label="Choose a new password"
      onSubmit={async (values) => {
        await apiFetch<typeof ChangePasswordResponse>("/api/profile/password", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(values),
        });
        window.location.assign("/accounts");
      }}
    >
      <FormAlert />
      <TextField
        name="currentPassword"
        label="Current or temporary password"
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
