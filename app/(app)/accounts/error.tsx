"use client";
import { ErrorState } from "@/components/ui/error-state.tsx";

export default function AccountsError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Accounts and balances</h1>
      <ErrorState
        title="This page could not be shown"
        message={
          error.digest
            ? `An unexpected error occurred (reference ${error.digest}).`
            : "An unexpected error occurred."
        }
        onRetry={reset}
      />
    </div>
  );
}
