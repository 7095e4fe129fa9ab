// /profile: who is signed in, their role, their password and the optional second factor.
import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/auth/change-password-form.tsx";
import { TotpSettings } from "@/components/auth/totp-settings.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { ROLE_DESCRIPTIONS } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Profile · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const user = await pageUser("/profile");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Profile</h1>
      <Panel id="me-heading" title="Your account">
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-slate-600">Name</dt>
          <dd className="text-slate-900">{user.name}</dd>
          <dt className="text-slate-600">E-mail</dt>
          <dd className="text-slate-900">{user.email}</dd>
          <dt className="text-slate-600">Role</dt>
          <dd className="text-slate-900">
            <span className="font-medium capitalize">{user.role}</span>: {ROLE_DESCRIPTIONS[user.role]}
          </dd>
        </dl>
      </Panel>
      <Panel id="password-heading" title="Password">
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Changing it needs the one you use now. The change is in the audit log.
        </p>
        <ChangePasswordForm stay />
      </Panel>
      <TotpSettings initiallyEnabled={user.totpEnabled} />
    </div>
  );
}
