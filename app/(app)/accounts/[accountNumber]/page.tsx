import type { Metadata } from "next";
import { AccountDetailLoader } from "@/components/accounts/account-detail-loader.tsx";
import { maskAccountNumber } from "@/lib/format/money.ts";

type Params = Promise<{ accountNumber: string }>;

/** The segment as typed; a malformed escape is kept as is and the API answers "not found". */
function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { accountNumber } = await params;
  return { title: `Account ${maskAccountNumber(segment(accountNumber))}` };
}

export default async function AccountPage({ params }: { params: Params }) {
  const { accountNumber } = await params;
  return <AccountDetailLoader accountNumber={segment(accountNumber)} />;
}
