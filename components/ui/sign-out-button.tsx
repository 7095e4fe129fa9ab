"use client";
import { useState } from "react";
import { signOut } from "@/components/session/sign-out.ts";
import { cn } from "@/components/ui/cn.ts";

export function SignOutButton({ className }: { className?: string }) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut();
      }}
      className={cn(
        "rounded-md border border-white/30 px-3 py-1.5 text-sm font-medium text-white hover:bg-white/10 disabled:opacity-70",
        className,
      )}
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
