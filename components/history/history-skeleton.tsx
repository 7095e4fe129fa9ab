import { HISTORY_ROW_HEIGHT } from "@/components/history/history-columns.ts";
import { LoadingRegion, Skeleton } from "@/components/ui/skeleton.tsx";

// The same columns as the table: two on a phone, five from the small breakpoint up.
const ROW =
  "grid grid-cols-[minmax(0,1fr)_6.75rem_6.75rem] items-center gap-x-4 px-2 sm:grid-cols-[8rem_minmax(0,1fr)_6.5rem_10rem_10.5rem] sm:px-4";
const DESKTOP = "hidden sm:block";
const PLACEHOLDER_ROWS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];

/** Placeholder rows shaped like the history table, in a box of the table's own height. */
export function HistorySkeletonRows({ rows = 10 }: { rows?: number }) {
  return (
    <LoadingRegion label="Loading transactions…">
      <div className="h-[36rem] max-h-[70vh] overflow-hidden border-t border-slate-200">
        <div className={`${ROW} h-10 bg-slate-50`}>
          <Skeleton className={`${DESKTOP} h-3 w-12`} />
          <Skeleton className="h-3 w-24" />
          <Skeleton className={`${DESKTOP} h-3 w-10`} />
          <Skeleton className="ml-auto h-3 w-14" />
          <Skeleton className={`${DESKTOP} ml-auto h-3 w-20`} />
        </div>
        {PLACEHOLDER_ROWS.slice(0, rows).map((key) => (
          <div
            key={key}
            className={`${ROW} border-b border-slate-100`}
            style={{ height: HISTORY_ROW_HEIGHT }}
          >
            <Skeleton className={`${DESKTOP} h-4 w-20`} />
            <div className="flex flex-col gap-1.5">
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-3 w-1/2" />
            </div>
            <Skeleton className={`${DESKTOP} h-4 w-12`} />
            <Skeleton className="ml-auto h-4 w-20" />
            <Skeleton className={`${DESKTOP} ml-auto h-4 w-24`} />
          </div>
        ))}
      </div>
    </LoadingRegion>
  );
}
