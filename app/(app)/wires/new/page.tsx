// /wires/new: prepare an outgoing wire as a draft (wires.create).
import type { Metadata } from "next";
import { allowed, NotAllowed, pageUser, SendPage } from "@/components/send-money/page-frame.tsx";
import { WireForm } from "@/components/send-money/wire-form.tsx";

export const metadata: Metadata = { title: "Send a wire" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/wires/new");
  if (!allowed(user, "wires.create")) return <NotAllowed title="Send a wire" permission="wires.create" />;
  return (
    <SendPage
      title="Send a wire"
      description="Prepared here, released by a second person on the Drafts page."
    >
      <WireForm />
    </SendPage>
  );
}
