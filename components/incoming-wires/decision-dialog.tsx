"use client";
import { useEffect, useRef } from "react";
import { ApprovalRows, type ShownVotes } from "@/components/send-money/approval-list.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { VoteEmbargoNotice } from "@/components/session/vote-embargo-notice.tsx";
import { Button, buttonClasses } from "@/components/ui/button.tsx";
import { Dialog, DialogActions } from "@/components/ui/dialog.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Table, Td, Th } from "@/components/ui/table.tsx";
import type { IncomingWire, IncomingWireAction } from "@/lib/dashboard-api/index.ts";
import { formatInstant } from "@/lib/format/dates.ts";
import { formatUsd } from "@/lib/format/money.ts";

export const ACTION_WORDS: Record<IncomingWireAction, { verb: string; title: string; effect: string }> = {
  approve: {
    verb: "Approve",
    title: "Approve this incoming wire?",
    effect: "The bank credits the account when the wire settles.",
  },
  cancel: {
    verb: "Cancel wire",
    title: "Cancel this incoming wire?",
    effect: "The wire is refused and nothing is credited.",
  },
  return: {
    verb: "Return",
    title: "Return this incoming wire?",
    effect: "The wire is refused and a return wire sends the money back to the originator.",
  },
};

const VOTED: Record<IncomingWireAction, string> = {
  approve: "approve",
  cancel: "cancel",
  return: "return",
};

/**
 * Where a wire above the limit stands for this viewer and this action, in words. Only another
 * approver's matching vote makes the viewer's agreement the one that sends it; the viewer's own
 * vote is counted once, however often they open the wire.
 */
export function secondVoteWords(
  wire: IncomingWire,
  action: IncomingWireAction,
  meId: string,
  when: (at: string) => string,
): { text: string; alreadyCounted: boolean } {
  const mine = wire.votes.find((v) => v.userId === meId);
  const others = wire.votes.filter((v) => v.userId !== meId);
  const agreeing = others.filter((v) => v.action === action);
  if (mine && mine.action === action)
    return {
      alreadyCounted: true,
      text: `Your vote to ${VOTED[action]} (${when(mine.at)}) is already counted. A different approver must decide before anything is sent to the bank.`,
    };
  if (agreeing.length)
    return {
      alreadyCounted: false,
      text: `${agreeing.map((v) => `${v.userEmail} voted to ${VOTED[v.action]} (${when(v.at)})`).join("; ")}: your agreement sends it to the bank.`,
    };
  const change = mine ? ` This changes your vote from ${VOTED[mine.action]} to ${VOTED[action]}.` : "";
  if (others.length)
    return {
      alreadyCounted: false,
      text: `${others.map((v) => `${v.userEmail} voted to ${VOTED[v.action]}`).join("; ")}, not to ${VOTED[action]}: your vote is recorded and nothing is sent until two different approvers agree on the same decision.${change}`,
    };
  return {
    alreadyCounted: false,
    text: `Your vote is recorded; nothing is sent until a second approver agrees.${change}`,
  };
}

/** The votes for this action as the approval list shows them, struck ones with why. */
export const votesForAction = (wire: IncomingWire, action: IncomingWireAction): ShownVotes => ({
  approvals: wire.votes
    .filter((v) => v.action === action)
    .map((v) => ({
      id: v.userId,
      email: v.userEmail,
      ...(v.ineligible ? { ineligible: v.ineligible } : {}),
    })),
  approvalsRequired: wire.approvalsRequired,
});

/**
 * The confirmation every decision passes through: it repeats the amount and the originator, and
 * its action button has focus, so Enter confirms and Escape (or "Keep waiting") backs out.
 */
export function DecisionDialog({
  wire,
  action,
  meId,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  wire: IncomingWire | null;
  action: IncomingWireAction | null;
  /** The signed-in approver: their own vote is never "another approver's". */
  meId: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const open = !!wire && !!action;
  const words = action ? ACTION_WORDS[action] : null;
  const timeZone = useBusinessTimeZone();
  const second =
    wire?.needsTwoApprovers && action
      ? secondVoteWords(wire, action, meId, (at) => formatInstant(at, timeZone))
      : null;
  // Their vote already counts: confirming again would decide nothing, so no button offers it.
  const canConfirm = !second?.alreadyCounted;
  const confirmRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  // Runs after the dialog's showModal (a parent's effect follows its child's), which would
  // otherwise focus the first button: Enter must confirm, never back out by accident.
  useEffect(() => {
    if (open) (canConfirm ? confirmRef : closeRef).current?.focus();
  }, [open, canConfirm]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={words?.title ?? ""}
      description={
        wire && words
          ? `${formatUsd(wire.amountCents)} from ${wire.originatorName}. ${words.effect}`
          : undefined
      }
    >
      {wire && action && words ? (
        <>
          <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
            <dt className="text-slate-600">Amount</dt>
            <dd className="font-semibold text-slate-900">
              <Money cents={wire.amountCents} />
            </dd>
            <dt className="text-slate-600">Originator</dt>
            <dd className="break-words text-slate-900">{wire.originatorName}</dd>
            <dt className="text-slate-600">Sending bank</dt>
            <dd className="break-words text-slate-900">{wire.sendingBankName}</dd>
            <dt className="text-slate-600">To account</dt>
            <dd className="text-slate-900">
              {wire.accountName} <span className="tabular-nums">{wire.accountNumber}</span>
            </dd>
            <dt className="text-slate-600">Payment ID</dt>
            <dd className="font-mono text-[0.8125rem] break-all text-slate-900">{wire.paymentId}</dd>
            <ApprovalRows d={votesForAction(wire, action)} policy={wire.approvalPolicy} />
          </dl>
          {action !== "cancel" ? <VoteEmbargoNotice /> : null}
          {second ? (
            <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {wire.approvalPolicy}: {wire.approvalsRequired > 2 ? "three" : "two"} different approvers must
              agree. {second.text}
            </p>
          ) : null}
          {error ? (
            <p
              role="alert"
              className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900"
            >
              {error}
            </p>
          ) : null}
          <DialogActions>
            <button
              ref={closeRef}
              type="button"
              onClick={onClose}
              disabled={busy}
              className={buttonClasses("secondary", "md")}
            >
              Keep waiting
            </button>
            {canConfirm ? (
              <button
                ref={confirmRef}
                type="button"
                onClick={onConfirm}
                disabled={busy}
                aria-busy={busy}
                className={buttonClasses(
                  "primary",
                  "md",
                  action === "approve" ? undefined : "bg-rose-700 hover:bg-rose-800",
                )}
              >
                {busy ? "Sending…" : `${words.verb} ${formatUsd(wire.amountCents)}`}
              </button>
            ) : null}
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}

export const SHORTCUTS: [string, string][] = [
  ["j or ↓", "Next wire"],
  ["k or ↑", "Previous wire"],
  ["a", "Approve the focused wire (asks to confirm)"],
  ["c", "Cancel the focused wire (asks to confirm)"],
  ["r", "Return the focused wire (asks to confirm)"],
  ["Enter", "Confirm, in the confirmation"],
  ["Escape", "Close the confirmation or this list"],
  ["?", "Show these keys"],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Keyboard shortcuts"
      description="No key decides a wire alone: every decision asks to confirm."
    >
      <Table caption="Keys of the approval queue" captionHidden>
        <thead>
          <tr>
            <Th>Key</Th>
            <Th>Does</Th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map(([key, what]) => (
            <tr key={key}>
              <Td className="pr-4">
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">
                  {key}
                </kbd>
              </Td>
              <Td>{what}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
