"use client";
// How an administrator's action went, announced: an error as an alert, the rest as a status, and a
// temporary password (shown once) with its copy button.
import { CopyButton } from "@/components/ui/copy-button.tsx";
import type { ActionMessage } from "@/hooks/use-admin-action.ts";

export function ActionMessageBox({ msg }: { msg: ActionMessage }) {
  if (!msg) return null;
  return (
    <div
      role={msg.kind === "error" ? "alert" : "status"}
      className={`rounded-md px-3 py-2 text-sm ${msg.kind === "error" ? "border border-rose-200 bg-rose-50 text-rose-800" : "border border-green-200 bg-green-50 text-green-900"}`}
    >
      {msg.text}
      {msg.secret ? (
        <span className="ml-1 inline-flex items-center gap-1">
          <code className="rounded bg-white px-1.5 py-0.5 font-mono text-slate-900">{msg.secret}</code>
          <CopyButton text={msg.secret} label="Copy the temporary password" />
        </span>
      ) : null}
    </div>
  );
}
