// /change-password: outside the app shell, so a user whose password an administrator set (a reset,
// or a new account) sees this page alone until a new password is chosen.
import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/auth/change-password-form.tsx";
import { OutsideShell } from "@/components/auth/outside-shell.tsx";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Choose a new password · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function ChangePasswordPage() {
  const user = await pageUser("/change-password");
  return (
    <OutsideShell
      mainId="main"
      heading={
        <>
          <h1 className="text-center text-2xl font-semibold tracking-tight text-slate-900">
            Choose a new password
          </h1>
          <p className="mt-2 text-center text-sm text-slate-600">
            {user.resetPending
              ? "An administrator set your password. Choose your own before you continue."
              : `Signed in as ${user.email}.`}
          </p>
        </>
      }
      cardClassName="mt-6"
    >
      <ChangePasswordForm />
    </OutsideShell>
  );
}
