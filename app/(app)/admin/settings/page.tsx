// /admin/settings: dual-control limits (settings.manage).
import type { Metadata } from "next";
import { SettingsForm } from "@/components/admin/settings-form.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { readSettingsWithChanges } from "@/lib/admin/settings-store.ts";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { getDashboardDb } from "@/lib/db/client.ts";

export const metadata: Metadata = { title: "Settings · Northwind Treasury" };
export const dynamic = "force-dynamic";

export default async function AdminSettingsPage() {
  const user = await pageUser("/admin/settings");
  if (!hasPermission(user.role, "settings.manage"))
    return <Refusal title="Settings">Only administrators can change settings.</Refusal>;
  const initial = await readSettingsWithChanges(await getDashboardDb());
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Settings</h1>
      <Card>
        <CardHeader
          title="Dual control"
          description="Payments above these amounts need a second person. A lower limit applies at once; a higher one waits for a second administrator. Every change is in the audit log."
        />
        <div className="p-5">
          <SettingsForm initial={initial} currentUserId={user.id} />
        </div>
      </Card>
    </div>
  );
}
