"use client";
import { Button } from "@/components/ui/button.tsx";

/** A failure in plain words, with a way to try again. Announced as an alert when it appears. */
export function ErrorState({
  title = "Something went wrong",
  message,
  onRetry,
  retrying = false,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <div role="alert" className="rounded-xl border border-rose-200 bg-rose-50 px-5 py-4 text-rose-900">
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{message}</p>
      {onRetry ? (
        <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry} disabled={retrying}>
          {retrying ? "Retrying…" : "Try again"}
        </Button>
      ) : null}
    </div>
  );
}

/** A query that failed, in words, with its own retry. */
export function QueryErrorState({
  title,
  query,
}: {
  title?: string;
  query: { error: Error; isFetching: boolean; refetch: () => unknown };
}) {
  return (
    <ErrorState
      title={title}
      message={query.error.message}
      onRetry={() => void query.refetch()}
      retrying={query.isFetching}
    />
  );
}
