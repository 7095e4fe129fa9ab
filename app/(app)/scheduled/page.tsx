// /scheduled: scheduled and recurring payments, SEN transfers and wires: the next 90 days (list or
// month), each series with its approvals, actions and history; then the sweeps, each with its band and last moves (accounts.read to see; transfers.create to prepare; wires.release to approve).
import type { Metadata } from "next";
import { ScheduledView } from "@/components/schedules/scheduled-view.tsx";
import { SweepsSection } from "@/components/schedules/sweeps-section.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Scheduled" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/scheduled");
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Scheduled</h1>
        <p className="mt-1 text-sm text-slate-600">
          Payments dated for a later business day or repeating on a schedule. Each one is a payment like any
          other: above the limits it needs approvers, who approve a series once for every payment up to its
          amount. Days are the Federal Reserve&apos;s business days, as the bank&apos;s clock counts them.
        </p>
      </div>
      <ScheduledView
        me={{ id: user.id }}
        canPrepare={hasPermission(user.role, "transfers.create")}
        canPrepareWires={hasPermission(user.role, "wires.create")}
        canApprove={hasPermission(user.role, "wires.release")}
      />
      <SweepsSection
        me={{ id: user.id }}
        canPrepare={hasPermission(user.role, "transfers.create")}
        canApprove={hasPermission(user.role, "wires.release")}
      />
    </div>
  );
}
