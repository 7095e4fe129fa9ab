// /accounts/new-sen: open a SEN account (transfers.create).
import type { Metadata } from "next";
import { NewSenAccountForm } from "@/components/send-money/new-sen-account-form.tsx";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "New SEN account" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/accounts/new-sen");
  if (!hasPermission(user.role, "transfers.create"))
    return <NotAllowed title="New SEN account" permission="transfers.create" />;
  return (
    <SendPage title="New SEN account">
      <NewSenAccountForm />
    </SendPage>
  );
}
