import type { Metadata } from "next";
import { AccountsLoader } from "@/components/accounts/accounts-loader.tsx";
import { AccountsPage } from "@/components/accounts/accounts-page.tsx";
import { WaitingForYou } from "@/components/inbox/waiting-card.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { getSessionUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Accounts" };

export default async function Page() {
  const user = await getSessionUser();
  const mayApprove =
    !!user && (hasPermission(user.role, "wires.release") || hasPermission(user.role, "wires.act"));
  return (
    <AccountsPage>
      {mayApprove ? <WaitingForYou /> : null}
      <AccountsLoader />
    </AccountsPage>
  );
}
