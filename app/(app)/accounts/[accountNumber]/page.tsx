import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AccountDetailLoader } from "@/components/accounts/account-detail-loader.tsx";
import { isOwnAccount } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { maskAccountNumber } from "@/lib/format/money.ts";
import { accountNumberParam } from "@/lib/route-kit/params.ts";

type Params = Promise<{ accountNumber: string }>;

/** The segment as typed; a malformed escape is kept as is (and is no account number). */
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

// No loading boundary covers this page, so an address that names no account of the organisation
// answers a real 404 before anything streams; a bank that cannot be asked leaves the answer to
// the page, which says so with a way to try again.
export default async function AccountPage({ params }: { params: Params }) {
  const accountNumber = segment((await params).accountNumber);
  if (!accountNumberParam.safeParse(accountNumber).success) notFound();
  const known = await getBankClient()
    .then((bank) => isOwnAccount(bank, accountNumber))
    .catch(() => null);
  if (known === false) notFound();
  return <AccountDetailLoader accountNumber={accountNumber} />;
}
