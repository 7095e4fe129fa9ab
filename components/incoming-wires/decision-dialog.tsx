"use client";
import { useEffect, useRef } from "react";
import { Button, buttonClasses } from "@/components/ui/button.tsx";
import { Dialog, DialogActions } from "@/components/ui/dialog.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Table, Td, Th } from "@/components/ui/table.tsx";
import type { IncomingWire, IncomingWireAction } from "@/lib/dashboard-api/index.ts";
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

/**
 * The confirmation every decision passes through: it repeats the amount and the originator, and
 * its action button has focus, so Enter confirms and Escape (or "Keep waiting") backs out.
 */
export function DecisionDialog({
  wire,
  action,
  dualApprovalCents,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  wire: IncomingWire | null;
  action: IncomingWireAction | null;
  dualApprovalCents: number;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const open = !!wire && !!action;
  const words = action ? ACTION_WORDS[action] : null;
  const confirmRef = useRef<HTMLButtonElement>(null);
  // Runs after the dialog's showModal (a parent's effect follows its child's), which would
  // otherwise focus the first button: Enter must confirm, never back out by accident.
  useEffect(() => {
    if (open) confirmRef.current?.focus();
  }, [open]);
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
          </dl>
          {wire.needsTwoApprovers ? (
            <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Above {formatUsd(dualApprovalCents)}: two different approvers must agree.{" "}
              {wire.votes.some((v) => v.action === action)
                ? "Another approver voted for this: your agreement sends it to the bank."
                : "Your vote is recorded; nothing is sent until a second approver agrees."}
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
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              Keep waiting
            </Button>
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
