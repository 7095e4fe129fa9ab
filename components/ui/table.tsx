import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/components/ui/cn.ts";

/** A plain table with a caption (every table has one), for short lists that need no virtualising. */
export function Table({
  caption,
  captionHidden = false,
  scrollable = false,
  className,
  children,
}: {
  caption: string;
  captionHidden?: boolean;
  /** A wide table on a narrow screen: its scroll box takes focus, so the keyboard can scroll it. */
  scrollable?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      // relative: a visually hidden header (position: absolute) stays inside the scroll box.
      className="relative overflow-x-auto"
      {...(scrollable ? { tabIndex: 0, role: "region", "aria-label": caption } : {})}
    >
      <table className={cn("w-full border-collapse text-sm", className)}>
        <caption className={cn("text-left text-sm text-slate-600", captionHidden ? "sr-only" : "mb-2")}>
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}

/** A cell or header a phone leaves out (the table shows its words another way there). */
export const DESKTOP_ONLY = "hidden sm:table-cell";

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        "border-b border-slate-200 bg-slate-50 px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase",
        className,
      )}
      {...props}
    />
  );
}

/** The header of a column of row buttons: named for screen readers, blank on screen. */
export function ActionsTh({ className }: { className?: string }) {
  return (
    <Th className={className}>
      <span className="sr-only">Actions</span>
    </Th>
  );
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("border-b border-slate-100 px-3 py-2 text-slate-800", className)} {...props} />;
}

export function Tr(props: HTMLAttributes<HTMLTableRowElement>) {
  return <tr {...props} />;
}

/**
 * Stands in for the rows above or below the ones a virtual table renders. Its one cell spans one
 * column: a cell spanning them all would make columns of its own where a phone hides some (cells
 * hidden by display: none make none), and a fixed table shares its width with those, leaving the
 * visible columns a sliver.
 */
export function SpacerRow({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tr>
      <td style={{ height, padding: 0 }} />
    </tr>
  );
}
