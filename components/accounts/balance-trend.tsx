"use client";
import { useMemo } from "react";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Section } from "@/components/ui/section.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useHistoryView } from "@/hooks/use-history-view.ts";
import { usePagedHistory } from "@/hooks/use-paged-history.ts";
import { dailyBalances, type TrendPoint } from "@/lib/format/balance-trend.ts";
import { formatDay, timeZoneLabel } from "@/lib/format/dates.ts";
import { validateRange } from "@/lib/format/history-filters.ts";
import { formatUsd } from "@/lib/format/money.ts";

const W = 1000;
const H = 160;

/** The polyline of the points, scaled into the chart's box (the lowest balance at the bottom). */
function pathOf(points: TrendPoint[], low: number, high: number): string {
  const span = high - low || 1;
  const step = points.length > 1 ? W / (points.length - 1) : 0;
  return points
    .map(
      (p, i) =>
        `${i ? "L" : "M"}${(i * step).toFixed(1)},${(H - 8 - ((p.cents - low) / span) * (H - 16)).toFixed(1)}`,
    )
    .join(" ");
}

function extreme(points: TrendPoint[], pick: (a: number, b: number) => boolean): TrendPoint {
  return points.reduce((best, p) => (pick(p.cents, best.cents) ? p : best), points[0]);
}

/**
 * End-of-day available balance over the range the history shows, read from the same history
 * (each transaction carries the balance after it). Its height is fixed, loading or not, so the
 * page below never moves when the data arrives.
 */
export function BalanceTrend({ accountNumber }: { accountNumber: string }) {
  const [view] = useHistoryView();
  const timeZone = useBusinessTimeZone();
  const rangeOk = Object.keys(validateRange(view.from, view.to)).length === 0;
  // The same pages the history below reads: the trend covers the days read so far.
  const history = usePagedHistory(accountNumber, view.from, view.to, view.order, rangeOk);
  const items = history.items;
  const spanFrom = history.readRange?.from;
  const spanTo = history.readRange?.to;
  const points = useMemo(
    () => (items && spanFrom && spanTo ? dailyBalances(items, view.order, spanFrom, spanTo) : []),
    [items, view.order, spanFrom, spanTo],
  );

  let body: React.ReactNode;
  if (!rangeOk)
    body = <p className="text-sm text-slate-600">Choose a valid date range below to see the trend.</p>;
  else if (history.isPending) body = <Skeleton className="h-full w-full" />;
  else if (history.error && !items)
    body = <p className="text-sm text-slate-600">The trend could not be drawn: the history did not load.</p>;
  else if (!points.length)
    body = (
      <p className="text-sm text-slate-600">
        No transactions between {formatDay(view.from)} and {formatDay(view.to)}: the balance did not move.
      </p>
    );
  else {
    const low = extreme(points, (a, b) => a < b);
    const high = extreme(points, (a, b) => a > b);
    const first = points[0];
    const last = points[points.length - 1];
    // Worded without "from" and "to", which name the date fields of the form below.
    const summary = `End-of-day available balance: ${formatUsd(first.cents)} on ${formatDay(first.day)}, ${formatUsd(last.cents)} on ${formatDay(last.day)}; lowest ${formatUsd(low.cents)} on ${formatDay(low.day)}, highest ${formatUsd(high.cents)} on ${formatDay(high.day)}.`;
    body = (
      <div className="grid h-full grid-cols-[minmax(0,1fr)] grid-rows-[auto_minmax(0,1fr)_auto] gap-1">
        <p className="flex justify-between text-xs text-slate-600 tabular-nums">
          <span>High {formatUsd(high.cents)}</span>
          <span>Low {formatUsd(low.cents)}</span>
        </p>
        <svg
          role="img"
          aria-label={summary}
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          className="h-full w-full overflow-visible rounded-md bg-slate-50"
        >
          <path
            d={`${pathOf(points, low.cents, high.cents)} L${W},${H} L0,${H} Z`}
            className="fill-brand-100/70"
          />
          <path
            d={pathOf(points, low.cents, high.cents)}
            fill="none"
            className="stroke-brand-700"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        <p className="flex justify-between text-xs text-slate-600 tabular-nums">
          <span>
            {formatDay(first.day)} · {formatUsd(first.cents)}
          </span>
          <span>
            {formatDay(last.day)} · {formatUsd(last.cents)}
          </span>
        </p>
      </div>
    );
  }

  return (
    <Section
      id="trend-heading"
      title="Balance trend"
      className="rounded-xl border border-slate-200 bg-white px-5 py-4 shadow-sm"
      headingClassName="text-base font-semibold text-slate-900"
    >
      <p className="text-sm text-slate-600">
        End-of-day available balance, {formatDay(spanFrom ?? view.from)} to {formatDay(spanTo ?? view.to)}
        {history.complete || !spanFrom ? "" : " (the days read so far)"} ({timeZoneLabel(timeZone)})
      </p>
      <div className="mt-3 h-44">{body}</div>
    </Section>
  );
}
