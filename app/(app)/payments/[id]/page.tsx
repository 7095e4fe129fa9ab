// /payments/[id]?account=: every field of one payment (accounts.read).
import type { Metadata } from "next";
import Link from "next/link";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { PaymentDetail } from "@/components/send-money/payment-detail.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Payment" };
export const dynamic = "force-dynamic";

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ account?: string }>;
}) {
  const { id } = await params;
  const user = await pageUser(`/payments/${id}`);
  if (!hasPermission(user.role, "accounts.read"))
    return <NotAllowed title="Payment" permission="accounts.read" />;
  const { account = "" } = await searchParams;
  return (
    <SendPage
      title={`Payment ${id}`}
      description={`Account ${account}`}
      action={
        <Link
          href={`/payments?account=${encodeURIComponent(account)}`}
          className="text-sm font-medium text-brand-700 underline"
        >
          ← All payments
        </Link>
      }
    >
      <PaymentDetail id={id} account={account} />
    </SendPage>
  );
}
