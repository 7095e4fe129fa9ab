// /admin/users: add users, change roles, disable accounts (users.manage).
import type { Metadata } from "next";
import { UsersAdmin } from "@/components/admin/users-admin.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Users · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function AdminUsersPage() {
  const user = await pageUser("/admin/users");
  if (!hasPermission(user.role, "users.manage"))
    return <Refusal title="Users">Only administrators can manage users.</Refusal>;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold text-slate-900">Users</h1>
        <nav aria-label="Administration" className="flex gap-4 text-sm font-medium">
          <a href="/admin/settings" className="text-blue-800 underline">
            Settings
          </a>
          <a href="/admin/policies" className="text-blue-800 underline">
            Approval policies
          </a>
          <a href="/admin/integration-tokens" className="text-blue-800 underline">
            Integration tokens
          </a>
          <a href="/admin/audit" className="text-blue-800 underline">
            Audit log
          </a>
        </nav>
      </div>
      <UsersAdmin currentUserId={user.id} />
    </div>
  );
}
