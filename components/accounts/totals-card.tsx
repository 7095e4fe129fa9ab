import { Card } from "@/components/ui/card.tsx";
import { Money } from "@/components/ui/money.tsx";
import type { AccountsResponse } from "@/lib/dashboard-api/types.ts";
import { AvailableShareChart } from "./available-share-chart.tsx";

/** The sum over every account, and how the available balance is spread. */
export function TotalsCard({ data }: { data: AccountsResponse }) {
  const n = data.accounts.length;
  return (
    <Card aria-labelledby="totals-heading" className="overflow-hidden">
      <div className="grid gap-6 px-5 py-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:gap-10">
        <div>
          <h2 id="totals-heading" className="text-base font-semibold text-slate-900">
            All accounts{" "}
            <span className="font-normal text-slate-600">
              ({n} {n === 1 ? "account" : "accounts"})
            </span>
          </h2>
          <dl className="mt-4 grid grid-cols-3 gap-4">
            <div className="col-span-3">
              <dt className="text-sm text-slate-600">Total available</dt>
              <dd className="text-3xl font-semibold tracking-tight text-brand-900">
                <Money cents={data.totals.availableCents} />
              </dd>
            </div>
            <div className="col-span-3 sm:col-span-1 lg:col-span-3 xl:col-span-1">
              <dt className="text-sm text-slate-600">Total current</dt>
              <dd className="font-semibold text-slate-900">
                <Money cents={data.totals.currentCents} />
              </dd>
            </div>
            <div className="col-span-3 sm:col-span-1 lg:col-span-3 xl:col-span-1">
              <dt className="text-sm text-slate-600">Total holds</dt>
              <dd className="font-semibold text-slate-900">
                <Money cents={data.totals.holdsCents} />
              </dd>
            </div>
          </dl>
        </div>
        <AvailableShareChart accounts={data.accounts} />
      </div>
    </Card>
  );
}
