"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn.ts";

/** A navigation link that marks itself as the current page (aria-current) for the section it leads to. */
export function NavLink({ href, children }: { href: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className={cn(
        "rounded-md px-3 py-2 text-sm font-medium transition-colors",
        current ? "bg-white/15 text-white" : "text-brand-100 hover:bg-white/10 hover:text-white",
      )}
    >
      {children}
    </Link>
  );
}
