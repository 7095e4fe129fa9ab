import type { Metadata } from "next";
import { AccountDetailView } from "@/components/accounts/account-detail-view.tsx";
import { maskAccountNumber } from "@/lib/format/money.ts";

type Params = Promise<{ accountNumber: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { accountNumber } = await params;
  return { title: `Account ${maskAccountNumber(decodeURIComponent(accountNumber))}` };
}

export default async function AccountPage({ params }: { params: Params }) {
  const { accountNumber } = await params;
  return <AccountDetailView accountNumber={decodeURIComponent(accountNumber)} />;
}
