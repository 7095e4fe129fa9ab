"use client";
import { AccountDetailView } from "@/components/accounts/account-detail-view.tsx";

/**
 * An account's page: its frame is drawn at once (on the server too) and fills in place as the
 * account, its history and its trend arrive, each asked for as soon as the page runs.
 */
export function AccountDetailLoader({ accountNumber }: { accountNumber: string }) {
  return <AccountDetailView accountNumber={accountNumber} />;
}
