"use client";
// What waits for the signed-in person, on the home page: the count, by kind, since when, and the
// way to the inbox. Kept live like the navigation's count (hooks/use-inbox.ts).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button.tsx";
import { useHydrated } from "@/hooks/use-hydrated.ts";
import { inboxCountQuery } from "@/hooks/use-inbox.ts";
import { formatWaited } from "@/lib/format/durations.ts";

export function WaitingForYou() {
  const query = useQuery(inboxCountQuery());
  // The server's words ("Reading…") until hydration is over: the count the navigation asked for
  // may arrive before this part hydrates, and text drawn from it would not match the server's.
  const data = useHydrated() ? query.data : undefined;
  const count = data?.count ?? 0;
  return (
    <section
      aria-labelledby="waiting-heading"
      className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-amber-200 bg-amber-50/60 px-5 py-4 shadow-sm"
    >
      <div className="min-w-0">
        <h2 id="waiting-heading" className="text-base font-semibold text-slate-900">
          Waiting for you
        </h2>
        <p className="mt-0.5 text-sm text-slate-700" data-waiting-count={data ? count : undefined}>
          {!data
            ? "Reading what waits for your approval…"
            : count === 0
              ? "Nothing waits for your approval."
              : `${count} ${count === 1 ? "item waits" : "items wait"} for you: ${data.drafts} ${data.drafts === 1 ? "draft" : "drafts"} to release, ${data.incomingWires} incoming ${data.incomingWires === 1 ? "wire" : "wires"} to decide${data.oldestSince ? `; the oldest for ${formatWaited(data.oldestSince)}` : ""}.`}
        </p>
      </div>
      <Link href="/approvals" className={buttonClasses(count ? "primary" : "secondary", "md")}>
        Open approvals{count ? ` (${count})` : ""}
      </Link>
    </section>
  );
}
