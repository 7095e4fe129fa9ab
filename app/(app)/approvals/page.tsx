// /approvals: the approvals inbox, everything waiting for the signed-in person that they may act
// on (drafts to release, incoming wires to decide). /drafts and /incoming-wires stay: the full
// list of drafts with their history and corrections, and the wire queue with what was decided today.
import type { Metadata } from "next";
import Link from "next/link";
import { InboxView } from "@/components/inbox/inbox-view.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Approvals" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/approvals");
  if (!hasPermission(user.role, "wires.release") && !hasPermission(user.role, "wires.act"))
    return (
      <Refusal title="Approvals">
        Only approvers and administrators release drafts and decide incoming wires.
        {hasPermission(user.role, "wires.create") ? (
          <>
            {" "}
            Your own drafts wait for an approver: follow them on{" "}
            <Link className="font-medium underline" href="/drafts">
              Drafts
            </Link>
            .
          </>
        ) : null}
      </Refusal>
    );
  return <InboxView />;
}
