// /payments: the wires of every account, or of one, over a range (accounts.read).
import type { Metadata } from "next";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { PaymentsView } from "@/components/send-money/payments-view.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { bankToday } from "@/lib/route-kit/params.ts";

export const metadata: Metadata = { title: "Payments" };
export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<{ account?: string }> }) {
  const user = await pageUser("/payments");
  if (!hasPermission(user.role, "accounts.read"))
    return <NotAllowed title="Payments" permission="accounts.read" />;
  const { account } = await searchParams;
  return (
    <SendPage title="Payments" description="Wires in and out of your accounts, as the bank records them.">
      <PaymentsView
        today={await bankToday()}
        initialAccount={/^\d{1,20}$/.test(account ?? "") ? account : undefined}
      />
    </SendPage>
  );
}
