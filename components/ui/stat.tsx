import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn.ts";

/** A figure with its words, inside a `<dl>`: the words above, the figure below. */
export function Stat({
  label,
  className,
  valueClassName = "font-medium",
  children,
}: {
  label: string;
  className?: string;
  valueClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <dt className="text-slate-600">{label}</dt>
      <dd className={cn("text-slate-900", valueClassName)}>{children}</dd>
    </div>
  );
}
