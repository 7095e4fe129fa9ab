// /admin/users: add users, change roles, disable accounts (users.manage).
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { UsersAdmin } from "@/components/admin/users-admin.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { getSessionUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Users · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function AdminUsersPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?callbackUrl=/admin/users");
  if (!hasPermission(user.role, "users.manage")) {
    return (
      <div className="mx-auto max-w-3xl">
        <h1 className="text-2xl font-semibold text-slate-900">Users</h1>
        <p
          role="alert"
          className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          Only administrators can manage users.
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold text-slate-900">Users</h1>
        <nav aria-label="Administration" className="flex gap-4 text-sm font-medium">
          <a href="/admin/settings" className="text-blue-800 underline">
            Settings
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
