"use client";
import { usePathname } from "next/navigation";
import { AccountsPage } from "@/components/accounts/accounts-page.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";

/**
 * The one error boundary of the accounts section: it covers the list and, below it, each
 * account's page, which it recognises by the address to show the account page's heading and
 * the way back.
 */
export default function AccountsError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const account = usePathname().startsWith("/accounts/");
  return (
    <AccountsPage heading={account ? "Account" : undefined} back={account}>
      <ErrorState
        title="This page could not be shown"
        message={
          error.digest
            ? `An unexpected error occurred (reference ${error.digest}).`
            : "An unexpected error occurred."
        }
        onRetry={reset}
      />
    </AccountsPage>
  );
}
