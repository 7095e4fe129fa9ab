// /beneficiaries: saved wire beneficiaries (wires.create): list, add, change, delete; an approver
// (beneficiaries.approve) approves or rejects another person's new beneficiary or payee change.
import type { Metadata } from "next";
import { BeneficiariesView } from "@/components/send-money/beneficiaries-view.tsx";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Saved beneficiaries" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/beneficiaries");
  if (!hasPermission(user.role, "wires.create"))
    return <NotAllowed title="Saved beneficiaries" permission="wires.create" />;
  return (
    <SendPage
      title="Saved beneficiaries"
      description="People and companies you pay by wire: choose one on the wire form to fill its fields. A new one, or a new account or bank, fills wires once a second person approves it."
    >
      <BeneficiariesView me={user.id} canApprove={hasPermission(user.role, "beneficiaries.approve")} />
    </SendPage>
  );
}
