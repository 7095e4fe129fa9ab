"use client";
import Link from "next/link";
import { ErrorState } from "@/components/ui/error-state.tsx";

export default function AccountError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div className="flex flex-col gap-4">
      <Link href="/accounts" className="text-sm font-medium text-brand-700 hover:underline">
        ← All accounts
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Account</h1>
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
