import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn.ts";

/**
 * A page outside the app shell (signing in, choosing a password): a narrow column centred on
 * grey, its heading, then its form in a white card, and an optional line below.
 */
export function OutsideShell({
  mainId,
  heading,
  cardClassName,
  footer,
  children,
}: {
  /** The skip link's target, on a page a signed-in user reaches. */
  mainId?: string;
  heading: ReactNode;
  cardClassName?: string;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main
      id={mainId}
      className="flex min-h-screen flex-col items-center justify-center bg-slate-100 px-4 py-12"
    >
      <div className="w-full max-w-sm">
        {heading}
        <div
          className={cn("rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8", cardClassName)}
        >
          {children}
        </div>
        {footer}
      </div>
    </main>
  );
}
