import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn.ts";

export type Tone = "neutral" | "brand" | "success" | "warning" | "danger";

const TONES: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-300",
  brand: "bg-brand-50 text-brand-800 ring-brand-200",
  success: "bg-green-50 text-green-800 ring-green-300",
  warning: "bg-amber-50 text-amber-900 ring-amber-300",
  danger: "bg-rose-50 text-rose-800 ring-rose-300",
};

/** A short label. The word carries the meaning; the colour only repeats it. */
export function Badge({
  tone = "neutral",
  children,
  className,
}: {
  tone?: Tone;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset",
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

const STATUS_TONES: Record<string, Tone> = {
  active: "success",
  open: "success",
  dormant: "warning",
  restricted: "warning",
  closed: "danger",
};

/** An account status as a word with a matching dot: "Active", "Dormant", "Closed". */
export function StatusPill({ status }: { status: string }) {
  const word = status.trim() || "Unknown";
  const tone = STATUS_TONES[word.toLowerCase()] ?? "neutral";
  return (
    <Badge tone={tone}>
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      <span>
        <span className="sr-only">Status: </span>
        {word}
      </span>
    </Badge>
  );
}
