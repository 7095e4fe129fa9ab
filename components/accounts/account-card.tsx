import Link from "next/link";
import { AccountNumber } from "@/components/accounts/account-number.tsx";
import { AccountTypeBadge } from "@/components/accounts/account-type-badge.tsx";
import { StatusPill } from "@/components/ui/badge.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Stat } from "@/components/ui/stat.tsx";
import type { AccountSummary } from "@/lib/dashboard-api/index.ts";
import { formatDay } from "@/lib/format/dates.ts";

/** One account at a glance; the whole card leads to the account page (the copy button stays its own control). */
export function AccountCard({ account }: { account: AccountSummary }) {
  const headingId = `account-${account.accountNumber}-name`;
  return (
    <article
      aria-labelledby={headingId}
      className="group relative flex flex-col rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-200 hover:shadow-md focus-within:border-brand-600"
    >
      <div className="flex flex-col gap-3 border-b border-slate-100 px-5 pt-5 pb-4">
        <div className="flex flex-wrap items-center gap-2">
          <AccountTypeBadge type={account.type} />
          <StatusPill status={account.status} />
        </div>
        <h3 id={headingId} className="text-lg font-semibold text-slate-900">
          <Link
            href={`/accounts/${account.accountNumber}`}
            className="rounded-sm after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:outline-offset-4"
          >
            {account.name}
          </Link>
        </h3>
        <p className="-mt-2 text-sm text-slate-600">{account.productDescription || account.titleLines[0]}</p>
        <AccountNumber accountNumber={account.accountNumber} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 px-5 py-4 text-sm">
        <Stat label="Available balance" className="col-span-2" valueClassName="text-2xl font-semibold">
          <Money cents={account.availableCents} />
        </Stat>
        <Stat label="Current balance">
          <Money cents={account.currentCents} />
        </Stat>
        <Stat label="Holds">
          <Money cents={account.holdsCents} />
        </Stat>
        <Stat label="Last deposit" className="col-span-2">
          {account.lastDepositDate ? (
            <>
              <Money cents={account.lastDepositCents} />
              <span className="font-normal text-slate-600"> on {formatDay(account.lastDepositDate)}</span>
            </>
          ) : (
            <span className="font-normal text-slate-600">None yet</span>
          )}
        </Stat>
      </dl>
      <p
        aria-hidden="true"
        className="mt-auto border-t border-slate-100 px-5 py-3 text-sm font-medium text-brand-700 group-hover:underline"
      >
        View balances and transactions →
      </p>
    </article>
  );
}
