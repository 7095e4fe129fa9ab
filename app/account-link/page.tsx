// /account-link: outside the app shell and open without a session: a one-time link e-mailed to a
// person (an invitation, a password reset, a lost device's removal) lands here.
import type { Metadata } from "next";
import { AccountLinkForm } from "@/components/auth/account-link-form.tsx";
import { OutsideShell } from "@/components/auth/outside-shell.tsx";

export const metadata: Metadata = { title: "Your account · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default function AccountLinkPage() {
  return (
    <OutsideShell
      mainId="main"
      heading={
        <h1 className="text-center text-2xl font-semibold tracking-tight text-slate-900">Your account</h1>
      }
      cardClassName="mt-6"
    >
      <AccountLinkForm />
    </OutsideShell>
  );
}
