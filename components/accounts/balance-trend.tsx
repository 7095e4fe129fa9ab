"use client";
import { useMemo, useState } from "react";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Section } from "@/components/ui/section.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useHistoryView } from "@/hooks/use-history-view.ts";
import { usePagedHistory } from "@/hooks/use-paged-history.ts";
import { dailyBalances, type TrendPoint } from "@/lib/accounts/balance-trend.ts";
import { formatDay, timeZoneLabel } from "@/lib/format/dates.ts";
import { formatUsd } from "@/lib/format/money.ts";
import { validateRange } from "@/lib/history/filters.ts";

const W = 1000;
const H = 160;
/** The plot's inner margin above the highest and below the lowest balance, in viewBox units. */
const PAD = 8;

/** Where a point sits in the plot, in percent of its width and height (the lowest balance at the bottom). */
function place(i: number, count: number, cents: number, low: number, high: number): { x: number; y: number } {
  const span = high - low || 1;
  return {
    x: count > 1 ? (i / (count - 1)) * 100 : 50,
    y: ((H - PAD - ((cents - low) / span) * (H - 2 * PAD)) / H) * 100,
  };
}

/** The polyline of the points, scaled into the chart's box. */
function pathOf(points: TrendPoint[], low: number, high: number): string {
  return points
    .map((p, i) => {
      const { x, y } = place(i, points.length, p.cents, low, high);
      return `${i ? "L" : "M"}${((x * W) / 100).toFixed(1)},${((y * H) / 100).toFixed(1)}`;
    })
    .join(" ");
}

function extreme(points: TrendPoint[], pick: (a: number, b: number) => boolean): number {
  return points.reduce((best, p, i) => (pick(p.cents, points[best].cents) ? i : best), 0);
}

/**
 * The trend as a line over the days, the highest and the lowest day marked and their balances on
 * the left. Pointing at a day, or stepping to it with the arrow keys once the chart has focus,
 * reads that day's closing balance in the line above the chart; otherwise it reads the last day's.
 * The keys move a range control that screen readers announce with the day and its balance.
 */
/** A level drawn across the chart (zero, an alert line) where the balance reaches it. */
export interface ChartLevel {
  cents: number;
  /** Its name beside the line and in the chart's summary: "Zero", "Alert line". */
  label: string;
}

export function TrendChart({
  points,
  label = "Day on the balance trend",
  levels = [],
}: {
  points: TrendPoint[];
  /** The name of the day control, unique on its page. */
  label?: string;
  /**
   * Levels to draw: each one the line reaches or crosses (between its lowest and highest day) is
   * drawn, red and dashed, with its name; one the balance stays clear of is left out, and the
   * scale stays the balance's own.
   */
  levels?: ChartLevel[];
}) {
  const [at, setAt] = useState<number | null>(null);
  const last = points.length - 1;
  // What the days alone decide, worked out once per set of days, not on every pointer move.
  const { lowAt, highAt, line, summary } = useMemo(() => {
    const lowAt = extreme(points, (a, b) => a < b);
    const highAt = extreme(points, (a, b) => a > b);
    const [first, end, lowest, highest] = [
      points[0],
      points[points.length - 1],
      points[lowAt],
      points[highAt],
    ];
    return {
      lowAt,
      highAt,
      line: pathOf(points, lowest.cents, highest.cents),
      // Worded without "from" and "to", which name the date fields of the form below.
      summary: `End-of-day available balance: ${formatUsd(first.cents)} on ${formatDay(first.day)}, ${formatUsd(end.cents)} on ${formatDay(end.day)}; lowest ${formatUsd(lowest.cents)} on ${formatDay(lowest.day)}, highest ${formatUsd(highest.cents)} on ${formatDay(highest.day)}.`,
    };
  }, [points]);
  const low = points[lowAt].cents;
  const high = points[highAt].cents;
  const reached = levels.filter((l) => l.cents >= low && l.cents <= high && high > low);
  const reachedWords = reached.length
    ? ` Reaches ${reached.map((l) => `${l.label.toLowerCase()} (${formatUsd(l.cents)})`).join(" and ")}.`
    : "";
  // The days can change under a held position (more history read, another range): it then reads the last.
  const shown = at !== null && at <= last ? at : last;
  const spot = (i: number) => place(i, points.length, points[i].cents, low, high);
  const active = spot(shown);

  const pointAt = (e: React.PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const ratio = box.width ? (e.clientX - box.left) / box.width : 0;
    setAt(Math.min(last, Math.max(0, Math.round(ratio * last))));
  };

  return (
    <div className="grid h-full grid-cols-[auto_minmax(0,1fr)] grid-rows-[auto_minmax(0,1fr)_auto] gap-x-3 gap-y-1 text-xs text-slate-600 tabular-nums">
      <p data-testid="trend-readout" className="col-start-2 row-start-1 text-right">
        <span className="sr-only">Closing balance on </span>
        {formatDay(points[shown].day)}
        <span aria-hidden="true"> · </span>
        <span className="sr-only">: </span>
        <span className="font-semibold text-slate-900">{formatUsd(points[shown].cents)}</span>
      </p>
      {/* The labels' middles fall within a pixel or two of the dashed lines at the top and bottom. */}
      <p
        aria-hidden="true"
        className="col-start-1 row-start-2 flex flex-col justify-between text-right whitespace-nowrap"
      >
        <span>High {formatUsd(high)}</span>
        <span>Low {formatUsd(low)}</span>
      </p>
      {/* The days as a range control: the arrow keys, Home and End step through them natively. */}
      <input
        type="range"
        min={0}
        max={last}
        value={shown}
        onChange={(e) => setAt(Number(e.target.value))}
        onBlur={() => setAt(null)}
        aria-label={label}
        aria-valuetext={`${formatDay(points[shown].day)}: ${formatUsd(points[shown].cents)}`}
        className="peer sr-only"
      />
      <div
        onPointerMove={pointAt}
        onPointerLeave={() => setAt(null)}
        className="relative col-start-2 row-start-2 cursor-crosshair rounded-md bg-slate-50 outline-offset-2 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-700"
      >
        <svg
          role="img"
          aria-label={summary + reachedWords}
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          className="h-full w-full overflow-visible"
        >
          <line
            x1={0}
            x2={W}
            y1={PAD}
            y2={PAD}
            className="stroke-slate-300"
            strokeDasharray="4 4"
            vectorEffect="non-scaling-stroke"
          />
          <line
            x1={0}
            x2={W}
            y1={H - PAD}
            y2={H - PAD}
            className="stroke-slate-300"
            strokeDasharray="4 4"
            vectorEffect="non-scaling-stroke"
          />
          <path d={`${line} L${W},${H} L0,${H} Z`} className="fill-brand-100/70" />
          {reached.map((l) => {
            const y = (place(0, points.length, l.cents, low, high).y * H) / 100;
            return (
              <line
                key={l.label}
                data-level={l.label}
                x1={0}
                x2={W}
                y1={y}
                y2={y}
                className="stroke-red-600"
                strokeWidth={1.5}
                strokeDasharray="6 4"
                vectorEffect="non-scaling-stroke"
              />
            );
          })}
          <path
            d={line}
            fill="none"
            className="stroke-brand-700"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        {reached.map((l) => (
          <span
            key={l.label}
            aria-hidden="true"
            className="absolute right-1 -translate-y-full rounded bg-white/90 px-1 text-[11px] font-medium text-red-700"
            style={{ top: `${place(0, points.length, l.cents, low, high).y}%` }}
          >
            {l.label} {formatUsd(l.cents)}
          </span>
        ))}
        {at !== null ? (
          <span
            aria-hidden="true"
            className="absolute inset-y-0 w-px bg-slate-400"
            style={{ left: `${active.x}%` }}
          />
        ) : null}
        {[highAt, lowAt, shown].map((i, k) => {
          const p = spot(i);
          return (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: three fixed markers, in a fixed order.
              key={k}
              aria-hidden="true"
              className={
                k === 2
                  ? "absolute size-2.5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-brand-700 shadow"
                  : "absolute size-2 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-brand-700 bg-white"
              }
              style={{ left: `${p.x}%`, top: `${p.y}%` }}
            />
          );
        })}
      </div>
      <p aria-hidden="true" className="col-start-2 row-start-3 flex justify-between">
        <span>{formatDay(points[0].day)}</span>
        <span>{formatDay(points[last].day)}</span>
      </p>
      {/* While the days have keyboard focus, the keys that step through them (screen readers hear the day). */}
      <p
        aria-hidden="true"
        className="col-start-2 row-start-3 hidden max-w-full justify-self-center rounded bg-slate-800 px-2 text-center text-white peer-focus-visible:block"
      >
        ← → a day · Home, End the first, the last
      </p>
    </div>
  );
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
  else body = <TrendChart points={points} />;

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
