// /transfers/new: a SEN transfer (transfers.create), a draft when the approval policy asks for an
// approver. The form is handed the policies in force and today's totals, so that its hint says what
// the server's evaluator will decide.
import type { Metadata } from "next";
import Link from "next/link";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { SenTransferForm } from "@/components/send-money/sen-transfer-form.tsx";
import { policySetNow, senSentTodayForForm } from "@/lib/approvals/facts.ts";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { config } from "@/lib/config.ts";
import { getDashboardDb } from "@/lib/db/client.ts";

export const metadata: Metadata = { title: "Send money" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/transfers/new");
  if (!hasPermission(user.role, "transfers.create"))
    return <NotAllowed title="Send money" permission="transfers.create" />;
  const db = await getDashboardDb();
  const [policies, today] = await Promise.all([
    policySetNow(db),
    senSentTodayForForm(db, { preparerId: user.id, timeZone: config().timeZone }),
  ]);
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
      <SenTransferForm policies={policies} preparerId={user.id} today={today} />
    </SendPage>
  );
}
