import { cn } from "@/components/ui/cn.ts";

/** A grey placeholder shaped like the content that is loading; hidden from assistive technology. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-slate-200/80", className)} />;
}

/** Full-width placeholders of the given heights (Tailwind classes), laid out by `className`, marked busy. */
export function Placeholders({ className, heights }: { className: string; heights: string[] }) {
  return (
    <div className={className} aria-busy="true">
      {heights.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed, and two blocks may share a height
        <Skeleton key={i} className={`${h} w-full`} />
      ))}
    </div>
  );
}

/** The white card a group of placeholders sits in, framed like the card it stands in for. */
export function SkeletonCard({ className, children }: { className?: string; children: React.ReactNode }) {
  return <div className={cn("rounded-xl border border-slate-200 bg-white p-5", className)}>{children}</div>;
}

/** Announces loading once, politely, for everything the skeletons stand in for. */
export function LoadingRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div aria-busy="true" className={className}>
      <p role="status" className="sr-only">
        {label}
      </p>
      {children}
    </div>
  );
}
