import { AccountsPage } from "@/components/accounts/accounts-page.tsx";
import { AccountsSkeleton } from "@/components/accounts/accounts-skeleton.tsx";

export default function Loading() {
  return (
    <AccountsPage>
      <AccountsSkeleton />
    </AccountsPage>
  );
}
