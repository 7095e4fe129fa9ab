// /sign-in: outside the app shell. A signed-in visitor goes straight on to the dashboard.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form.tsx";
import { getSessionUser } from "@/lib/auth/session.ts";
import { sessionSettings } from "@/lib/auth/settings.ts";
import { formatDuration } from "@/lib/format/durations.ts";

export const metadata: Metadata = { title: "Sign in · Northwind Treasury" };
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
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <div
            aria-hidden="true"
            className="mx-auto flex h-12 w-12 items-center justify-center rounded-lg bg-blue-950 text-lg font-bold text-white"
          >
            N
          </div>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">Northwind Treasury</h1>
          <p className="mt-1 text-sm text-slate-600">Sign in to manage your organisation's accounts.</p>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <SignInForm notice={notice} callbackUrl={callbackUrl} />
        </div>
        <p className="mt-6 text-center text-xs text-slate-500">
          For your security, sessions end after a period without activity. Locked out? Contact your
          administrator.
        </p>
      </div>
    </main>
  );
}
