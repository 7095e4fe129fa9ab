import { cn } from "@/components/ui/cn.ts";
import { formatSignedUsd, formatUsd } from "@/lib/format/money.ts";

/** An amount in cents, in tabular figures so columns of money line up. */
export function Money({
  cents,
  direction,
  className,
}: {
  cents: number;
  /** Show a sign (+ credit, − debit) and colour; the sign is the signal, the colour repeats it. */
  direction?: "debit" | "credit";
  className?: string;
}) {
  const text = direction ? formatSignedUsd(cents, direction) : formatUsd(cents);
  return (
    <span
      className={cn(
        "tabular-nums",
        direction === "debit" && "text-debit",
        direction === "credit" && "text-credit",
        className,
      )}
    >
      {text}
    </span>
  );
}
