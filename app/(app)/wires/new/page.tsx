// /wires/new: prepare an outgoing wire as a draft (wires.create); ?draft=<id> corrects a pending one.
import type { Metadata } from "next";
import { NotAllowed, SendPage } from "@/components/send-money/page-frame.tsx";
import { WireForm } from "@/components/send-money/wire-form.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { isId } from "@/lib/dashboard-api/ids.ts";

export const metadata: Metadata = { title: "Send a wire" };
export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<{ draft?: string }> }) {
  const user = await pageUser("/wires/new");
  const { draft } = await searchParams;
  const draftId = isId(draft) ? draft : undefined;
  if (!hasPermission(user.role, "wires.create"))
    return <NotAllowed title="Send a wire" permission="wires.create" />;
  return (
    <SendPage
      title={draftId ? "Correct a wire draft" : "Send a wire"}
      description="Prepared here, released by a second person on the Drafts page."
    >
      <WireForm draftId={draftId} />
    </SendPage>
  );
}
