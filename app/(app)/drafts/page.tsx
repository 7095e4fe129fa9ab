// /drafts: payments waiting for a second person (wires.create to see, wires.release to decide).
import type { Metadata } from "next";
import { DraftsView } from "@/components/send-money/drafts-view.tsx";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";

export const metadata: Metadata = { title: "Drafts" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/drafts");
  if (!hasPermission(user.role, "wires.create"))
    return <NotAllowed title="Drafts" permission="wires.create" />;
  return (
    <SendPage
      title="Drafts"
      description="Wires, and SEN transfers above the release threshold, wait here until a second person releases them."
    >
      <DraftsView me={{ id: user.id }} canRelease={hasPermission(user.role, "wires.release")} />
    </SendPage>
  );
}
