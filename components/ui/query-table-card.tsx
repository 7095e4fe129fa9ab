"use client";
import type { ReactNode } from "react";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { QueryErrorState } from "@/components/ui/error-state.tsx";
import { ActionsTh, Table, Tr } from "@/components/ui/table.tsx";

/** What the card reads of the list's query (a useQuery result). */
type ListQuery = { isPending: boolean; isFetching: boolean; refetch: () => unknown } & (
  | { isError: true; error: Error }
  | { isError: false; error: null }
);

/**
 * A list a query reads, as a table in a card: the failure with its retry in place of the card;
 * else the card's heading over a loading line, the empty state, or the table, whose last column
 * holds each row's buttons.
 */
export function QueryTableCard({
  query,
  id,
  title,
  description,
  loading,
  count,
  empty,
  caption,
  columns,
  children,
}: {
  query: ListQuery;
  /** The heading's id, which names the card. */
  id?: string;
  title: ReactNode;
  description?: ReactNode;
  /** The loading line, until the first answer. */
  loading: string;
  /** How many rows the answer holds: none shows `empty`. */
  count: number;
  empty: ReactNode;
  caption: string;
  /** The header cells before the buttons' column. */
  columns: ReactNode;
  /** The rows. */
  children: ReactNode;
}) {
  if (query.isError) return <QueryErrorState query={query} />;
  return (
    <Card className="min-w-0 overflow-hidden" aria-labelledby={id}>
      <CardHeader id={id} title={title} description={description} />
      {query.isPending ? (
        <p className="px-5 py-6 text-sm text-slate-600">{loading}</p>
      ) : count === 0 ? (
        empty
      ) : (
        <Table caption={caption} captionHidden>
          <thead>
            <Tr>
              {columns}
              <ActionsTh className="relative" />
            </Tr>
          </thead>
          <tbody>{children}</tbody>
        </Table>
      )}
    </Card>
  );
}
