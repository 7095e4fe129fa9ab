// A card of notices named by its heading: one list, each notice a tinted box (amber for what did
// not happen, rose for what will fall short), as the inbox's notices and warnings show them.
import type { LiHTMLAttributes, ReactNode } from "react";
import { TitledCard } from "@/components/ui/card.tsx";
import { cn } from "@/components/ui/cn.ts";

const TONES = {
  amber: "border-amber-200 bg-amber-50",
  rose: "border-rose-200 bg-rose-50",
} as const;

export function NoticeCard({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <TitledCard id={id} title={title} description={description}>
      <ul className="flex flex-col gap-2 px-4 pb-4 text-sm">{children}</ul>
    </TitledCard>
  );
}

export function Notice({
  tone,
  className,
  ...props
}: { tone: keyof typeof TONES } & LiHTMLAttributes<HTMLLIElement>) {
  return (
    <li className={cn("rounded-md border px-3 py-2 text-slate-800", TONES[tone], className)} {...props} />
  );
}
