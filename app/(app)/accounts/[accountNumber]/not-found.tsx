import Link from "next/link";
import { AccountsPage } from "@/components/accounts/accounts-page.tsx";
import { buttonClasses } from "@/components/ui/button.tsx";

export default function AccountNotFound() {
  return (
    <AccountsPage heading="Account not found" back>
      <div className="flex max-w-xl flex-col items-start gap-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <p className="text-slate-700">
          No account of your organisation has this address. Check the link, or choose the account from the
          list.
        </p>
        <Link href="/accounts" className={buttonClasses("primary")}>
          Show all accounts
        </Link>
      </div>
    </AccountsPage>
  );
}
