import type { Metadata } from "next";
import { AccountsLoader } from "@/components/accounts/accounts-loader.tsx";
import { AccountsPage } from "@/components/accounts/accounts-page.tsx";

export const metadata: Metadata = { title: "Accounts" };

export default function Page() {
  return (
    <AccountsPage>
      <AccountsLoader />
    </AccountsPage>
  );
}
