import type { StatusMessage } from "@/hooks/use-card-actions.ts";

/** A page's status line for its actions, read out when it changes; empty until the first. */
export function ActionStatus({ message }: { message: StatusMessage }) {
  return (
    <div role="status" aria-live="polite" className="min-h-6 text-sm">
      {message ? (
        <p className={message.tone === "ok" ? "text-emerald-800" : "font-medium text-rose-700"}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
