"use client";
import { useState } from "react";
import { SignOutFailed, signOut } from "@/components/session/sign-out.ts";
import { cn } from "@/components/ui/cn.ts";

export function SignOutButton({ className }: { className?: string }) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <span className="flex flex-wrap items-center justify-end gap-2">
      {failure ? (
        <span role="alert" className="rounded-md bg-red-50 px-3 py-1.5 text-sm font-medium text-red-900">
          {failure}
        </span>
      ) : null}
      <button
        type="button"
        disabled={pending}
        onClick={() => {
          setPending(true);
          setFailure(null);
          signOut().catch((e: unknown) => {
            setFailure(e instanceof SignOutFailed ? e.message : "You are still signed in. Try again.");
            setPending(false);
          });
        }}
        className={cn(
          "rounded-md border border-white/30 px-3 py-1.5 text-sm font-medium text-white hover:bg-white/10 disabled:opacity-70",
          className,
        )}
      >
        {pending ? "Signing out…" : failure ? "Try signing out again" : "Sign out"}
      </button>
    </span>
  );
}
