"use client";
// What a series' card and a sweep's card share: the heading with its status and approval, the
// line of who set it up and who approved it, and the approve, pause and resume buttons, each a
// request to the item's own route (its path) answered on the page's status line.
import { Badge, StatusPill } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import type { RunAction } from "@/hooks/use-card-actions.ts";
import type { Series, Sweep } from "@/lib/dashboard-api/schedules.ts";

/** What the two kinds of card read of their item, as the contract names it. */
export type ApprovableItem = Pick<
  Series | Sweep,
  "id" | "name" | "status" | "version" | "approved" | "approvalsRequired" | "approvals" | "preparedBy"
>;

/**
 * Whether this person's approval is asked for: an approver who neither set it up nor approved it
 * already, while it waits. The page's offer only: the server judges the vote when it is cast.
 */
function mayApproveItem(item: ApprovableItem, me: { id: string }, canApprove: boolean): boolean {
  return (
    canApprove &&
    item.preparedBy.id !== me.id &&
    !item.approved &&
    item.approvals.every((a) => a.id !== me.id)
  );
}

/** "Active" for "active": a stored status as a word with a capital. */
export const statusWord = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function CardHeading({ headingId, item }: { headingId: string; item: ApprovableItem }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {item.name}
      </h3>
      <div className="flex gap-2">
        <StatusPill status={statusWord(item.status)} />
        <Badge tone={item.approved ? "success" : "warning"}>
          {item.approved ? "Approved" : "Waiting for approval"}
        </Badge>
      </div>
    </div>
  );
}

/** "Prepared by … · 1 of 2 approvals (…) · version 3", and what the card adds after it. */
export function ProvenanceLine({
  item,
  verb,
  children,
}: {
  item: ApprovableItem;
  verb: string;
  children?: React.ReactNode;
}) {
  const approvals =
    item.approvalsRequired === 0
      ? "No approval needed"
      : `${item.approvals.length} of ${item.approvalsRequired} approvals`;
  return (
    <p className="mt-1 text-xs text-slate-600">
      {verb} by {item.preparedBy.email} · {approvals}
      {item.approvals.length ? ` (${item.approvals.map((a) => a.email).join(", ")})` : ""} · version{" "}
      {item.version}
      {children}
    </p>
  );
}

/** Approve (when this person's approval is asked for), pause and resume, through `path`. */
export function ApprovePauseResume({
  item,
  path,
  approveLabel,
  me,
  canApprove,
  canPrepare,
  resumedWords,
  busy,
  run,
}: {
  item: ApprovableItem;
  path: string;
  approveLabel: string;
  me: { id: string };
  canApprove: boolean;
  canPrepare: boolean;
  /** What the status line says once it goes on again. */
  resumedWords: string;
  busy: boolean;
  run: RunAction;
}) {
  return (
    <>
      {mayApproveItem(item, me, canApprove) ? (
        <Button
          size="sm"
          disabled={busy}
          onClick={() => run(`${path}/approve`, { version: item.version }, `You approved ${item.name}.`)}
        >
          {approveLabel}
        </Button>
      ) : null}
      {canPrepare && (item.status === "active" || item.status === "paused") ? (
        <Button
          variant="secondary"
          size="sm"
          disabled={busy}
          onClick={() =>
            item.status === "active"
              ? run(`${path}/status`, { action: "pause" }, `${item.name} is paused.`)
              : run(`${path}/status`, { action: "resume" }, resumedWords)
          }
        >
          {item.status === "active" ? "Pause" : "Resume"}
        </Button>
      ) : null}
    </>
  );
}
