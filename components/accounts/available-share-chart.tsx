import type { AccountSummary } from "@/lib/dashboard-api/index.ts";
import { formatShare, formatUsd, maskAccountNumber } from "@/lib/format/money.ts";

// Distinct, calm shades that stay apart for common colour-vision differences; the legend's words
// and percentages carry the meaning, the colours only match bars to rows.
const SHADES = ["#12325d", "#3b7dd8", "#0f766e", "#a3b8d6", "#64748b", "#b45309"];

/** Each account's share of total available balance as one horizontal bar, with a readable legend. */
export function AvailableShareChart({ accounts }: { accounts: AccountSummary[] }) {
  const positive = accounts.map((a) => ({ ...a, value: Math.max(0, a.availableCents) }));
  const total = positive.reduce((s, a) => s + a.value, 0);
  let x = 0;
  const summary = positive.map((a) => `${a.name} ${formatShare(a.value, total)}`).join(", ");
  return (
    <figure className="flex min-w-0 flex-col gap-3">
      <figcaption className="text-sm font-medium text-slate-700">Share of total available balance</figcaption>
      <svg
        role="img"
        aria-label={
          total > 0 ? `Share of total available balance: ${summary}` : "No available balance to compare"
        }
        viewBox="0 0 1000 28"
        preserveAspectRatio="none"
        className="h-7 w-full overflow-hidden rounded-md bg-slate-100"
      >
        {total > 0
          ? positive.map((a, i) => {
              const width = (a.value / total) * 1000;
              const rect = (
                <rect
                  key={a.accountNumber}
                  x={x}
                  y={0}
                  width={width}
                  height={28}
                  fill={SHADES[i % SHADES.length]}
                >
                  <title>{`${a.name}: ${formatUsd(a.availableCents)} (${formatShare(a.value, total)})`}</title>
                </rect>
              );
              x += width;
              return rect;
            })
          : null}
      </svg>
      <ul className="flex flex-col gap-1.5 text-sm">
        {positive.map((a, i) => (
          <li key={a.accountNumber} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className="size-3 shrink-0 rounded-sm"
              style={{ background: SHADES[i % SHADES.length] }}
            />
            <span className="min-w-0 truncate text-slate-800">
              {a.name} <span className="text-slate-600">{maskAccountNumber(a.accountNumber)}</span>
            </span>
            <span className="ml-auto hidden pl-4 text-slate-700 tabular-nums sm:inline">
              {formatUsd(a.availableCents)}
            </span>
            <span className="ml-auto w-14 shrink-0 text-right font-medium sm:ml-0 text-slate-900 tabular-nums">
              {formatShare(a.value, total)}
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
