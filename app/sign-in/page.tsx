// /sign-in: outside the app shell. A signed-in visitor goes straight on to the dashboard.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { OutsideShell } from "@/components/auth/outside-shell.tsx";
import { SignInForm } from "@/components/auth/sign-in-form.tsx";
import { getSessionUser } from "@/lib/auth/session.ts";
import { sessionSettings } from "@/lib/auth/session-limits.ts";
import { formatDuration } from "@/lib/format/durations.ts";

export const metadata: Metadata = { title: "Sign in · Northwind Treasury" };

// The product's mark: its initial in a square, hidden from screen readers (the heading names it).
const MARK =
  "mx-auto flex h-12 w-12 items-center justify-center rounded-lg bg-blue-950 text-lg font-bold text-white";
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ reason?: string; callbackUrl?: string }>;
}) {
  const { reason, callbackUrl } = await searchParams;
  if (await getSessionUser()) redirect("/accounts");
  const notice =
    reason === "idle"
      ? `You were signed out after ${formatDuration(sessionSettings().idleSeconds)} without activity. Sign in again to continue.`
      : undefined;
  return (
    <OutsideShell
      heading={
        <div className="mb-8 text-center">
          <div aria-hidden="true" className={MARK}>
            N
          </div>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">Northwind Treasury</h1>
          <p className="mt-1 text-sm text-slate-600">Sign in to manage your organisation's accounts.</p>
        </div>
      }
      footer={
        <p className="mt-6 text-center text-xs text-slate-500">
          For your security, sessions end after a period without activity. Locked out? Contact your
          administrator.
        </p>
      }
    >
      <SignInForm notice={notice} callbackUrl={callbackUrl} />
    </OutsideShell>
  );
}
