// The frame of each sending-money page: its heading, and for a role without the permission a
// plain explanation instead of the page (the route handlers refuse it as well).
import type { ReactNode } from "react";
import { Refusal } from "@/components/ui/refusal.tsx";
import type { Permission } from "@/lib/auth/permissions.ts";

export function SendPage({
  title,
  description,
  children,
  action,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </div>
  );
}

export function NotAllowed({ title, permission }: { title: string; permission: Permission }) {
  const words: Partial<Record<Permission, string>> = {
    "transfers.create": "preparers, approvers and administrators",
    "wires.create": "preparers, approvers and administrators",
    "wires.release": "approvers and administrators",
  };
  return (
    <Refusal title={title}>
      This page is for {words[permission] ?? "other roles"}. Ask an administrator if you need it.
    </Refusal>
  );
}
