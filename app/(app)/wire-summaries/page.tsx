// /wire-summaries: e-wire summaries by account, day and direction, or one history item's (?uniqueId=).
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { WireSummaries } from "@/components/incoming-wires/wire-summaries.tsx";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { isIsoDay } from "@/lib/bank-api/dates.ts";
import { bankToday } from "@/lib/route-kit/params.ts";

export const metadata: Metadata = { title: "Wire summaries" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function Page({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await pageUser("/wire-summaries");
  if (!hasPermission(user.role, "accounts.read")) redirect("/profile");
  const sp = await searchParams;
  const date = one(sp.date);
  return (
    <WireSummaries
      filter={{
        accountNumber: /^(all|\d{1,20})$/.test(one(sp.accountNumber)) ? one(sp.accountNumber) : "",
        date: isIsoDay(date) ? date : await bankToday(),
        direction: one(sp.direction) === "O" ? "O" : "I",
        uniqueId: one(sp.uniqueId).slice(0, 1000),
      }}
    />
  );
}
