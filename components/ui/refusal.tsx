// What a page shows a role that may not use it (its route handlers refuse the role as well): the
// page's own heading, so the page is still named where it starts, and why it shows nothing.
import type { ReactNode } from "react";

export function Refusal({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p
        role="alert"
        className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        {children}
      </p>
    </div>
  );
}
