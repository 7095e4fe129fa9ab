import { HistorySkeletonRows } from "@/components/history/history-skeleton.tsx";
import { LoadingRegion, Skeleton, SkeletonCard } from "@/components/ui/skeleton.tsx";

export function AccountDetailSkeleton() {
  return (
    <LoadingRegion label="Loading account…" className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-4 w-56" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <SkeletonCard key={i}>
            <Skeleton className="h-4 w-28" />
            <Skeleton className="mt-3 h-7 w-36" />
          </SkeletonCard>
        ))}
      </div>
      <div className="rounded-xl border border-slate-200 bg-white">
        <div className="p-5">
          <Skeleton className="h-6 w-48" />
        </div>
        <HistorySkeletonRows rows={6} />
      </div>
    </LoadingRegion>
  );
}
