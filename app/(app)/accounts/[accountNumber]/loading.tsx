import { AccountDetailSkeleton } from "@/components/accounts/account-detail-skeleton.tsx";

export default function Loading() {
  return <AccountDetailSkeleton />;
}
