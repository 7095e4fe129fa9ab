import type { ReactNode } from "react";
import { Icon } from "@/components/ui/icon.tsx";

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 px-6 py-12 text-center">
      <Icon className="size-8 text-slate-400" strokeWidth={1.5} round>
        <path d="M4 6h16M4 12h16M4 18h10" />
      </Icon>
      <p className="font-medium text-slate-800">{title}</p>
      {children ? <div className="max-w-md text-sm text-slate-600">{children}</div> : null}
      {action}
    </div>
  );
}
