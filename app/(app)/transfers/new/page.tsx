// /transfers/new: a SEN transfer (transfers.create), a draft above the release threshold.
import type { Metadata } from "next";
import Link from "next/link";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { SenTransferForm } from "@/components/send-money/sen-transfer-form.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { getDashboardSettings } from "@/lib/settings.ts";

export const metadata: Metadata = { title: "Send money" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/transfers/new");
  if (!hasPermission(user.role, "transfers.create"))
    return <NotAllowed title="Send money" permission="transfers.create" />;
  const settings = await getDashboardSettings(await getDashboardDb());
  return (
    <SendPage
      title="Send money"
      description="A transfer between SEN accounts, settled at once."
      action={
        <Link href="/accounts/new-sen" className="text-sm font-medium text-brand-700 underline">
          Open a new SEN account
        </Link>
      }
    >
      <SenTransferForm releaseThresholdCents={settings.senReleaseThresholdCents} />
    </SendPage>
  );
}
