import Link from "next/link";
import type { ReactNode } from "react";

/** The way back from one account to the list of all accounts. */
export function BackLink() {
  return (
    <Link href="/accounts" className="text-sm font-medium text-brand-700 hover:underline">
      ← All accounts
    </Link>
  );
}

/**
 * The frame of a page in the accounts section, shared by the page, its loading and its error
 * states so they line up: the heading, preceded on one account's page by the way back.
 */
export function AccountsPage({
  heading = "Accounts and balances",
  back = false,
  children,
}: {
  heading?: string;
  back?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={back ? "flex flex-col gap-4" : "flex flex-col gap-6"}>
      {back ? <BackLink /> : null}
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{heading}</h1>
      {children}
    </div>
  );
}
