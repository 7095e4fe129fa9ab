"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { downloadHistoryCsv, ExportCsvButton } from "@/components/history/export-csv-button.tsx";
import { ClearFiltersButton, HistoryFilterBar } from "@/components/history/history-filter-bar.tsx";
import { HistoryRangeForm } from "@/components/history/history-range-form.tsx";
import { HistorySkeletonRows } from "@/components/history/history-skeleton.tsx";
import { HistoryTable, type HistoryTableHandle } from "@/components/history/history-table.tsx";
import { useBusinessToday } from "@/components/session/business-time-zone.tsx";
import { Button } from "@/components/ui/button.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { QueryErrorState } from "@/components/ui/error-state.tsx";
import { accountQuery } from "@/hooks/use-account-queries.ts";
import { useHistoryView } from "@/hooks/use-history-view.ts";
import { usePagedHistory } from "@/hooks/use-paged-history.ts";
import type { HistoryItem } from "@/lib/dashboard-api/index.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { formatDay } from "@/lib/format/dates.ts";
import {
  filterHistory,
  hasActiveFilters,
  historyViewToSearch,
  validateRange,
} from "@/lib/history/filters.ts";

// The detail sheet is needed only once a row is opened, so its code is a chunk of its own.
const loadSheet = () => import("./transaction-sheet.tsx");
const TransactionSheet = lazy(() => loadSheet().then((m) => ({ default: m.TransactionSheet })));

export function HistoryPanel({ accountNumber }: { accountNumber: string }) {
  const [view, update] = useHistoryView();
  const tableRef = useRef<HistoryTableHandle>(null);
  const [selected, setSelected] = useState<{ item: HistoryItem; index: number } | null>(null);

  // Write the full view into the address on arrival, so the link in the bar can be shared as is.
  useEffect(() => {
    const wanted = historyViewToSearch(view);
    if (window.location.search.slice(1) !== wanted) update({});
  }, [view, update]);

  const rangeOk = Object.keys(validateRange(view.from, view.to)).length === 0;
  const history = usePagedHistory(accountNumber, view.from, view.to, view.order, rangeOk);
  const loaded = history.items;
  const filters = { q: view.q, dir: view.dir, min: view.min, max: view.max };
  const rows = useMemo(
    () => (loaded ? filterHistory(loaded, { q: view.q, dir: view.dir, min: view.min, max: view.max }) : []),
    [loaded, view.q, view.dir, view.min, view.max],
  );

  // Reading on: one page as the reader scrolls to the end of what is read, or every page in turn
  // ("Read the whole range", an export); Stop ends either and cancels the page under way.
  const queryClient = useQueryClient();
  const [reading, setReading] = useState<"idle" | "all" | "export">("idle");
  const [stopped, setStopped] = useState(false);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const rangeKey = `${view.from}|${view.to}|${view.order}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new range starts reading afresh
  useEffect(() => {
    setReading("idle");
    setStopped(false);
  }, [rangeKey]);
  useEffect(() => {
    if (reading === "idle" || stopped || !history.data || history.isPlaceholderData) return;
    if (!hasNextPage) {
      if (reading === "export" && loaded)
        void downloadHistoryCsv(
          filterHistory(loaded, filters),
          accountNumber,
          view.from,
          view.to,
          hasActiveFilters(view),
        );
      setReading("idle");
      return;
    }
    if (!isFetchingNextPage) void fetchNextPage();
  });
  const readMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage && !stopped && !history.isPlaceholderData) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, stopped, history.isPlaceholderData, fetchNextPage]);
  const stop = () => {
    setStopped(true);
    setReading("idle");
    void queryClient.cancelQueries({
      queryKey: queryKeys.pagedHistory(accountNumber, view.from, view.to, view.order),
    });
  };

  // The bank has nothing before the account was opened, nor after its today.
  const account = useQuery(accountQuery(accountNumber)).data?.account;
  const today = useBusinessToday()();
  const limits = [
    account && view.from < account.openDate
      ? `The bank keeps this account's history from its opening on ${formatDay(account.openDate)}: nothing earlier exists.`
      : "",
    view.to > today ? `Days after today (${formatDay(today)}) have no transactions yet.` : "",
  ].filter(Boolean);
  // Fetch the detail sheet's code once there are rows to open, so a click opens it at once.
  useEffect(() => {
    if (loaded?.length) void loadSheet();
  }, [loaded]);
  const filtered = hasActiveFilters(view);
  const rangeText = `${formatDay(view.from)} and ${formatDay(view.to)}`;
  const updating = history.isFetching && history.isPlaceholderData;
  const caption = `Transactions between ${rangeText}, ${view.order === "D" ? "newest" : "oldest"} first`;
  const soFar = history.complete ? "" : " in the days read so far";
  const countText = !loaded
    ? ""
    : filtered && loaded.length > 0
      ? `Showing ${rows.length.toLocaleString("en-US")} of ${loaded.length.toLocaleString("en-US")} transactions${soFar}`
      : `${loaded.length.toLocaleString("en-US")} ${loaded.length === 1 ? "transaction" : "transactions"}${soFar}`;
  const notice = history.dayByDay ? (history.notice ?? "Loaded day by day.") : "";
  const pct = history.totalDays ? Math.round((history.daysRead / history.totalDays) * 100) : 0;

  return (
    <section
      aria-labelledby="history-heading"
      className="rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-col gap-5 border-b border-slate-100 px-5 py-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
            Transaction history
          </h2>
          <ExportCsvButton
            count={rows.length}
            busy={reading === "export"}
            disabled={!rangeOk || !loaded || (history.complete && !rows.length)}
            onExport={() => {
              setStopped(false);
              setReading("export");
            }}
          />
        </div>
        <HistoryRangeForm view={view} onApply={(patch) => update(patch)} />
        <HistoryFilterBar view={view} onChange={(patch) => update(patch)} />
        {/* Live regions exist before their text arrives, so screen readers announce the change. */}
        <div
          role="status"
          aria-live="polite"
          className={
            notice
              ? "rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900"
              : "sr-only"
          }
        >
          {notice ? (
            <>
              <span className="font-semibold">Large range. </span>
              {notice}
              {history.truncatedDays.length ? (
                <span className="mt-1 block">
                  The bank's daily limit was reached on {history.truncatedDays.map(formatDay).join(", ")}:
                  some transactions of those days are not shown.
                </span>
              ) : null}
            </>
          ) : null}
        </div>
      </div>

      {limits.length ? (
        <p className="mx-5 mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {limits.join(" ")}
        </p>
      ) : null}

      {rangeOk && history.data && !history.complete ? (
        <div className="mx-5 mt-4 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg bg-slate-50 px-4 py-3 text-sm">
          <label className="flex min-w-0 flex-1 flex-col gap-1 text-slate-700">
            <span>
              Read {history.daysRead.toLocaleString("en-US")} of {history.totalDays.toLocaleString("en-US")}{" "}
              days
              {history.readRange
                ? ` (${formatDay(history.readRange.from)} to ${formatDay(history.readRange.to)})`
                : ""}
              {reading === "export" ? " · exporting the whole range" : ""}
              {stopped ? " · stopped" : ""}
            </span>
            <progress className="h-2 w-full accent-brand-700" max={100} value={pct}>
              {pct}%
            </progress>
          </label>
          {reading !== "idle" || isFetchingNextPage ? (
            <Button variant="secondary" size="sm" onClick={stop}>
              Stop
            </Button>
          ) : (
            <div className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  setStopped(false);
                  if (hasNextPage) void fetchNextPage();
                }}
              >
                Read the next month
              </Button>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  setStopped(false);
                  setReading("all");
                }}
              >
                Read the whole range
              </Button>
            </div>
          )}
        </div>
      ) : null}

      <div className="flex flex-wrap items-baseline justify-between gap-2 px-5 pt-4 pb-3">
        {/* The table's own caption says the same for assistive technology. */}
        <p aria-hidden="true" className="text-sm font-medium text-slate-800">
          {caption}
        </p>
        <p aria-live="polite" className="text-sm text-slate-600 tabular-nums">
          {countText}
          {updating ? " · Updating…" : ""}
        </p>
      </div>

      {!rangeOk ? (
        <p className="px-5 pb-5 text-sm text-slate-700">
          No transactions are shown until the dates above are fixed (see the message under each date).
        </p>
      ) : history.isPending ? (
        <HistorySkeletonRows />
      ) : history.error && !loaded ? (
        <div className="px-5 pb-5">
          <QueryErrorState title="Transactions could not be loaded" query={history} />
        </div>
      ) : !loaded?.length && history.complete ? (
        <EmptyState title={`No transactions between ${rangeText}.`}>
          Choose a wider date range to see more.
        </EmptyState>
      ) : !loaded?.length ? (
        <EmptyState title="No transactions in the days read so far.">
          Read on (above) to look further through the range.
        </EmptyState>
      ) : !rows.length ? (
        <EmptyState
          title="No transactions match these filters."
          action={<ClearFiltersButton variant="secondary" size="sm" onChange={update} />}
        >
          {loaded.length.toLocaleString("en-US")} transactions between {rangeText}
          {soFar} are hidden by the search or filters.
        </EmptyState>
      ) : (
        <HistoryTable
          ref={tableRef}
          rows={rows}
          caption={`${caption}. ${countText}.`}
          onOpen={(item, index) => setSelected({ item, index })}
          onEndReached={readMore}
        />
      )}

      {selected ? (
        <Suspense fallback={null}>
          <TransactionSheet
            item={selected.item}
            onClose={() => {
              setSelected(null);
              tableRef.current?.focusRow(selected.index);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
