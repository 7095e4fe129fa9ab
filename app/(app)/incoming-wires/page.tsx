// /incoming-wires: the approval queue (wires.act).
import type { Metadata } from "next";
import { IncomingWiresQueue } from "@/components/incoming-wires/incoming-wires-queue.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Incoming wires" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/incoming-wires");
  if (!hasPermission(user.role, "wires.act"))
    return (
      <Refusal title="Incoming wires">Only approvers and administrators can decide incoming wires.</Refusal>
    );
  return <IncomingWiresQueue meId={user.id} />;
}
