import { LoadingRegion, Skeleton, SkeletonCard } from "@/components/ui/skeleton.tsx";

export function AccountsSkeleton() {
  return (
    <LoadingRegion label="Loading accounts…" className="flex flex-col gap-6">
      <SkeletonCard>
        <Skeleton className="h-4 w-40" />
        <Skeleton className="mt-4 h-9 w-64" />
        <Skeleton className="mt-6 h-7 w-full" />
      </SkeletonCard>
      <div className="grid gap-5 md:grid-cols-2 xl:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <SkeletonCard key={i}>
            <Skeleton className="h-5 w-28" />
            <Skeleton className="mt-3 h-6 w-48" />
            <Skeleton className="mt-3 h-4 w-56" />
            <Skeleton className="mt-6 h-8 w-40" />
            <Skeleton className="mt-4 h-4 w-full" />
            <Skeleton className="mt-2 h-4 w-2/3" />
          </SkeletonCard>
        ))}
      </div>
    </LoadingRegion>
  );
}
