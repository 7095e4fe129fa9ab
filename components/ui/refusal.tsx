// What a page shows a role that may not use it (its route handlers refuse the role as well).
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn.ts";

export function Refusal({ title, children }: { title?: string; children: ReactNode }) {
  const notice = (
    <p
      role="alert"
      className={cn(
        "rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900",
        title ? "mt-4" : "mx-auto max-w-3xl",
      )}
    >
      {children}
    </p>
  );
  if (!title) return notice;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {notice}
    </div>
  );
}
