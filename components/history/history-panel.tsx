"use client";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { useHistory } from "@/hooks/use-history.ts";
import { useHistoryView } from "@/hooks/use-history-view.ts";
import type { HistoryItem } from "@/lib/dashboard-api/index.ts";
import { formatDay } from "@/lib/format/dates.ts";
import {
  filterHistory,
  hasActiveFilters,
  historyViewToSearch,
  validateRange,
} from "@/lib/format/history-filters.ts";
import { ExportCsvButton } from "./export-csv-button.tsx";
import { ClearFiltersButton, HistoryFilterBar } from "./history-filter-bar.tsx";
import { HistoryRangeForm } from "./history-range-form.tsx";
import { HistorySkeletonRows } from "./history-skeleton.tsx";
import { HistoryTable, type HistoryTableHandle } from "./history-table.tsx";

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
  const history = useHistory(accountNumber, view.from, view.to, view.order, rangeOk);
  const loaded = history.data?.items;
  const rows = useMemo(
    () => (loaded ? filterHistory(loaded, { q: view.q, dir: view.dir, min: view.min, max: view.max }) : []),
    [loaded, view.q, view.dir, view.min, view.max],
  );
  // Fetch the detail sheet's code once there are rows to open, so a click opens it at once.
  useEffect(() => {
    if (loaded?.length) void loadSheet();
  }, [loaded]);
  const filtered = hasActiveFilters(view);
  const rangeText = `${formatDay(view.from)} and ${formatDay(view.to)}`;
  const updating = history.isFetching && history.isPlaceholderData;
  const caption = `Transactions between ${rangeText}, ${view.order === "D" ? "newest" : "oldest"} first`;
  const countText = !loaded
    ? ""
    : filtered && loaded.length > 0
      ? `Showing ${rows.length.toLocaleString("en-US")} of ${loaded.length.toLocaleString("en-US")} transactions`
      : `${loaded.length.toLocaleString("en-US")} ${loaded.length === 1 ? "transaction" : "transactions"}`;
  const notice =
    history.data?.source === "extendedhistory" ? (history.data.notice ?? "Loaded day by day.") : "";

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
            rows={rows}
            accountNumber={accountNumber}
            from={view.from}
            to={view.to}
            filtered={filtered}
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
              {history.data?.truncatedDays.length ? (
                <span className="mt-1 block">
                  The bank's daily limit was reached on {history.data.truncatedDays.map(formatDay).join(", ")}
                  : some transactions of those days are not shown.
                </span>
              ) : null}
            </>
          ) : null}
        </div>
      </div>

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
        <div className="px-5 pb-5">
          <ErrorState
            title="This range cannot be shown"
            message="Fix the dates above and show transactions again."
          />
        </div>
      ) : history.isPending ? (
        <HistorySkeletonRows />
      ) : history.error && !loaded ? (
        <div className="px-5 pb-5">
          <ErrorState
            title="Transactions could not be loaded"
            message={history.error.message}
            onRetry={() => void history.refetch()}
            retrying={history.isRefetching}
          />
        </div>
      ) : !loaded?.length ? (
        <EmptyState title={`No transactions between ${rangeText}.`}>
          Choose a wider date range to see more.
        </EmptyState>
      ) : !rows.length ? (
        <EmptyState
          title="No transactions match these filters."
          action={<ClearFiltersButton variant="secondary" size="sm" onChange={update} />}
        >
          {loaded.length.toLocaleString("en-US")} transactions between {rangeText} are hidden by the search or
          filters.
        </EmptyState>
      ) : (
        <HistoryTable
          ref={tableRef}
          rows={rows}
          caption={`${caption}. ${countText}.`}
          onOpen={(item, index) => setSelected({ item, index })}
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
