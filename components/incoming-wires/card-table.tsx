import type { ReactNode } from "react";
import { Table, Th } from "@/components/ui/table.tsx";

/**
 * A list inside a card: a table with its caption for screen readers, one header row and a scroll
 * box of its own on a narrow screen. The decided-today list and the wire summaries share it.
 */
export function CardTable({
  caption,
  headers,
  className,
  children,
}: {
  caption: string;
  /** Column names; `right` aligns a column of amounts. */
  headers: { label: string; right?: boolean }[];
  className?: string;
  /** The rows. */
  children: ReactNode;
}) {
  return (
    <div className="px-2 pb-3">
      <Table caption={caption} captionHidden scrollable className={className}>
        <thead>
          <tr>
            {headers.map((h) => (
              <Th key={h.label} className={h.right ? "text-right" : undefined}>
                {h.label}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </Table>
    </div>
  );
}
