import Link from "next/link";
import { redirect } from "next/navigation";
import { NotificationsPanel } from "@/components/alerts/notifications-panel.tsx";
import { MainNav } from "@/components/nav/main-nav.tsx";
import { BusinessTimeZoneProvider } from "@/components/session/business-time-zone.tsx";
import IdleSessionGuard from "@/components/session/idle-session-guard.tsx";
import { LiveBalances } from "@/components/session/live-balances.tsx";
import { Icon } from "@/components/ui/icon.tsx";
import { SignOutButton } from "@/components/ui/sign-out-button.tsx";
import { ToastProvider } from "@/components/ui/toast.tsx";
import { hasPermission, ROLE_DESCRIPTIONS, ROLE_NAMES } from "@/lib/auth/permissions.ts";
import { getSessionUser } from "@/lib/auth/session.ts";
import { bankOffsetMs } from "@/lib/bank-client/bank-time.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { config } from "@/lib/config.ts";
import { navFor } from "@/lib/navigation.ts";

// Every signed-in page shares this shell; without a session the only way is sign-in.
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  // A password an administrator reset is replaced before anything else is shown.
  if (user.resetPending) redirect("/change-password");
  // The browser's "today" is the bank's: its clock may run ahead of this machine's (a sandbox).
  await (await getBankClient().catch(() => null))?.learnBankTime();

  return (
    <BusinessTimeZoneProvider timeZone={config().timeZone} bankOffsetMs={bankOffsetMs()}>
      <ToastProvider>
        <div className="flex min-h-screen flex-col">
          <a
            href="#main"
            className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
          >
            Skip to main content
          </a>
          <header className="bg-brand-900 text-white">
            <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-4 gap-y-2 px-4 pt-3 pb-2 sm:px-6 md:gap-x-8">
              <Link
                href="/accounts"
                className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight"
              >
                <Icon className="size-6" round>
                  <path d="M3 10 12 4l9 6M5 10v8m4-8v8m6-8v8m4-8v8M3 20h18" />
                </Icon>
                Treasury
              </Link>
              <div className="ml-auto flex items-center gap-4">
                {hasPermission(user.role, "accounts.read") ? <NotificationsPanel /> : null}
                <LiveBalances />
                <div className="hidden text-right leading-tight sm:block">
                  <p className="text-sm font-medium">{user.name}</p>
                  <p className="text-xs text-brand-100" title={ROLE_DESCRIPTIONS[user.role]}>
                    <span className="sr-only">Role: </span>
                    {ROLE_NAMES[user.role] ?? user.role}
                  </p>
                </div>
                <SignOutButton />
              </div>
              {/* The groups of links are a row of their own under the name and sign-out, in reading
                  and tab order alike; on a phone they open from a Menu button. */}
              <MainNav groups={navFor(user.role)} />
            </div>
          </header>
          <main
            id="main"
            tabIndex={-1}
            className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 focus:outline-none sm:px-6"
          >
            {children}
          </main>
          <footer className="border-t border-slate-200 bg-white">
            <p className="mx-auto max-w-7xl px-4 py-4 text-xs text-slate-600 sm:px-6">
              Balances are as reported by the bank at the time shown on each page.
            </p>
          </footer>
          <IdleSessionGuard />
        </div>
      </ToastProvider>
    </BusinessTimeZoneProvider>
  );
}
