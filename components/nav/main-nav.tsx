"use client";
// The header's navigation in its groups. On a wide screen every group is in sight, one row; on a
// phone the groups sit behind a Menu button (a disclosure: aria-expanded, focus moves to the first
// link on opening, Escape closes and gives focus back to the button, a followed link closes it).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId } from "react";
import { cn } from "@/components/ui/cn.ts";
import { useDisclosure } from "@/hooks/use-disclosure.ts";
import { useHydrated } from "@/hooks/use-hydrated.ts";
import { inboxCountQuery } from "@/hooks/use-inbox.ts";

export interface ShownNavGroup {
  label: string;
  items: readonly { href: string; label: string; count?: "inbox" }[];
}

const isCurrent = (pathname: string, href: string) => pathname === href || pathname.startsWith(`${href}/`);

/** The count of what waits for the user, beside the Approvals link; nothing while none waits. */
export function InboxCountBadge({ className }: { className?: string }) {
  const query = useQuery(inboxCountQuery());
  // What the server drew (nothing) until hydration is over: the count may arrive before this part
  // hydrates, and a badge drawn then would not match the server's HTML.
  const data = useHydrated() ? query.data : undefined;
  if (!data?.count) return null;
  return (
    <span
      data-inbox-count={data.count}
      className={cn(
        "ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-400 px-1.5 text-xs font-bold text-slate-900 tabular-nums",
        className,
      )}
    >
      {data.count}
      <span className="sr-only"> waiting</span>
    </span>
  );
}

export function MainNav({ groups }: { groups: ShownNavGroup[] }) {
  const pathname = usePathname();
  const { open, setOpen, panel, containerProps, buttonProps, panelProps } = useDisclosure<HTMLDivElement>();
  const currentLabel =
    groups.flatMap((g) => g.items).find((i) => isCurrent(pathname, i.href))?.label ?? "Menu";

  // A followed link closes the menu (the page under it changed).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLAnchorElement>("a[href]")?.focus();
  }, [open, panel]);

  return (
    <nav aria-label="Main" className="w-full" {...containerProps}>
      <button
        {...buttonProps}
        className="flex w-full items-center justify-between rounded-md bg-white/10 px-3 py-2 text-sm font-medium text-white hover:bg-white/15 md:hidden"
      >
        <span className="flex items-center gap-2">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
          Menu
          <span className="sr-only">, </span>
          <span className="font-normal text-brand-100">{currentLabel !== "Menu" ? currentLabel : ""}</span>
        </span>
        <InboxCountBadge />
      </button>
      <div
        {...panelProps}
        className={cn(
          "mt-2 flex-col gap-3 pb-2 md:mt-0 md:flex md:flex-row md:flex-wrap md:items-center md:gap-0 md:pb-0",
          open ? "flex" : "hidden",
        )}
      >
        {groups.map((g, gi) => (
          <NavGroup key={g.label} group={g} pathname={pathname} first={gi === 0} />
        ))}
      </div>
    </nav>
  );
}

function NavGroup({ group, pathname, first }: { group: ShownNavGroup; pathname: string; first: boolean }) {
  const labelId = useId();
  return (
    <div
      className={cn(
        "flex flex-col md:flex-row md:items-center",
        !first && "border-t border-white/10 pt-3 md:ml-1 md:border-t-0 md:border-l md:pt-0 md:pl-1",
      )}
    >
      <span
        id={labelId}
        className="px-3 pb-1 text-xs font-semibold tracking-wide text-brand-100 uppercase md:sr-only"
      >
        {group.label}
      </span>
      <ul aria-labelledby={labelId} className="flex flex-col gap-0.5 md:flex-row md:items-center md:gap-0.5">
        {group.items.map((i) => {
          const current = isCurrent(pathname, i.href);
          return (
            <li key={i.href}>
              <Link
                href={i.href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "flex items-center rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors md:px-2 xl:px-1.5",
                  current ? "bg-white/15 text-white" : "text-brand-100 hover:bg-white/10 hover:text-white",
                )}
              >
                {i.label}
                {i.count === "inbox" ? <InboxCountBadge /> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
