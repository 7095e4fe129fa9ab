// /incoming-wires: the approval queue (wires.act).
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { IncomingWiresQueue } from "@/components/incoming-wires/incoming-wires-queue.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { getSessionUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Incoming wires" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?callbackUrl=/incoming-wires");
  if (!hasPermission(user.role, "wires.act")) {
    return (
      <p
        role="alert"
        className="mx-auto max-w-3xl rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        Only approvers and administrators can decide incoming wires.
      </p>
    );
  }
  return <IncomingWiresQueue />;
}
