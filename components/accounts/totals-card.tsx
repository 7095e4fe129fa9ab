import { AvailableShareChart } from "@/components/accounts/available-share-chart.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Money } from "@/components/ui/money.tsx";
import type { AccountsResponse } from "@/lib/dashboard-api/index.ts";

// The two smaller totals share a row from the small breakpoint up, and again on extra-large
// screens, where the chart sits beside them.
const BESIDE = "col-span-3 sm:col-span-1 lg:col-span-3 xl:col-span-1";
const SMALL = "font-semibold text-slate-900";

/** The sum over every account, and how the available balance is spread. */
export function TotalsCard({ data }: { data: AccountsResponse }) {
  const n = data.accounts.length;
  const totals = [
    {
      label: "Total available",
      cents: data.totals.availableCents,
      span: "col-span-3",
      value: "text-3xl font-semibold tracking-tight text-brand-900",
    },
    { label: "Total current", cents: data.totals.currentCents, span: BESIDE, value: SMALL },
    { label: "Total holds", cents: data.totals.holdsCents, span: BESIDE, value: SMALL },
  ];
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
            {totals.map((t) => (
              <div key={t.label} className={t.span}>
                <dt className="text-sm text-slate-600">{t.label}</dt>
                <dd className={t.value}>
                  <Money cents={t.cents} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <AvailableShareChart accounts={data.accounts} />
      </div>
    </Card>
  );
}
