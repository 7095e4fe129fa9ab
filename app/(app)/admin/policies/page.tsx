// /admin/policies: the approval policies in force, a new one stated with its 30-day preview, and the
// change waiting for a second administrator (settings.manage).
import type { Metadata } from "next";
import { PoliciesAdmin } from "@/components/admin/policies-admin.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { readPolicies } from "@/lib/approvals/admin.ts";
import { hasPermission, isRole } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { listUsers } from "@/lib/auth/users.ts";
import { getDashboardDb } from "@/lib/db/client.ts";

export const metadata: Metadata = { title: "Approval policies · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function AdminPoliciesPage() {
  const user = await pageUser("/admin/policies");
  if (!hasPermission(user.role, "settings.manage"))
    return <Refusal title="Approval policies">Only administrators can state approval policies.</Refusal>;
  const db = await getDashboardDb();
  const initial = await readPolicies(db);
  const people = (await listUsers(db))
    .filter((u) => !u.disabled && isRole(u.role) && hasPermission(u.role, "wires.release"))
    .map((u) => ({ id: u.id, email: u.email }));
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Approval policies</h1>
      <Card>
        <CardHeader
          title="What each payment needs"
          description="The most demanding policy that matches a payment decides how many approvers it needs, none of them its preparer. Every change waits for a second administrator."
        />
        <div className="p-5">
          <PoliciesAdmin initial={initial} people={people} currentUserId={user.id} />
        </div>
      </Card>
    </div>
  );
}
