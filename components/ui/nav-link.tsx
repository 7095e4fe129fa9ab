"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { cn } from "@/components/ui/cn.ts";

/** A navigation link that marks itself as the current page (aria-current) for the section it leads to. */
export function NavLink({ href, children }: { href: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  const ref = useRef<HTMLAnchorElement>(null);
  // Where the links scroll sideways (a phone), the current one is brought into view.
  useEffect(() => {
    const link = ref.current;
    const row = link?.parentElement;
    if (!current || !link || !row || row.scrollWidth <= row.clientWidth) return;
    // The link before it stays partly in sight, so the row reads as one that scrolls.
    row.scrollLeft = link.offsetLeft - row.offsetLeft - 56;
  }, [current]);
  return (
    <Link
      ref={ref}
      href={href}
      aria-current={current ? "page" : undefined}
      className={cn(
        "shrink-0 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors",
        current ? "bg-white/15 text-white" : "text-brand-100 hover:bg-white/10 hover:text-white",
      )}
    >
      {children}
    </Link>
  );
}
