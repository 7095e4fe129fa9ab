"use client";
import { useQuery } from "@tanstack/react-query";
import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { DecidedToday } from "@/components/incoming-wires/decided-today.tsx";
import {
  ACTION_WORDS,
  DecisionDialog,
  ShortcutsDialog,
} from "@/components/incoming-wires/decision-dialog.tsx";
import { createQueueCursor, type QueueCursor, useCursor } from "@/components/incoming-wires/queue-cursor.ts";
import { QueueTable, type QueueTableHandle } from "@/components/incoming-wires/queue-table.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { KeyboardPageHeader } from "@/components/ui/keyboard-page-header.tsx";
import { QueryState } from "@/components/ui/query-state.tsx";
import { incomingWiresQuery, useDecideIncomingWire } from "@/hooks/use-incoming-wires.ts";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";
import type { IncomingWire, IncomingWireAction } from "@/lib/dashboard-api/index.ts";
import { formatUsd } from "@/lib/format/money.ts";

const ACTION_KEYS: Record<string, IncomingWireAction> = { a: "approve", c: "cancel", r: "return" };
const ACTIONABLE = new Set<IncomingWire["state"]>(["pending", "awaiting_second_approval"]);

/** Keys typed into a field are the field's, never the queue's. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

/**
 * The approval queue: every incoming wire waiting for a decision, polled every few seconds, with
 * keys for someone who clears fifty before noon. Each decision goes through a confirmation that
 * repeats the amount and the originator; the page title carries the count.
 */
export function IncomingWiresQueue({ meId }: { meId: string }) {
  const query = useQuery(incomingWiresQuery());
  const decide = useDecideIncomingWire();
  const [cursor] = useState(createQueueCursor);
  const [pending, setPending] = useState<{ wire: IncomingWire; action: IncomingWireAction } | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const table = useRef<QueueTableHandle>(null);
  const refocus = useRef(false);

  const data = query.data;
  const wires = data?.wires ?? [];
  const count = wires.length;

  useEffect(() => {
    // The waiting times move as a transition: a key pressed while the rows redraw is handled first.
    const t = setInterval(() => startTransition(() => setNow(Date.now())), 30_000);
    return () => clearInterval(t);
  }, []);

  useEffect(() => {
    document.title = data ? `(${count}) Incoming wires · Treasury` : "Incoming wires · Treasury";
  }, [data, count]);

  // The focused row stays in range as wires leave.
  useEffect(() => {
    if (cursor.get() > 0 && cursor.get() >= count) cursor.set(Math.max(0, count - 1));
  }, [count, cursor]);

  // After a decision the row that took the decided one's place gets focus.
  useEffect(() => {
    if (refocus.current && !pending && count) {
      refocus.current = false;
      table.current?.focusRow(Math.min(cursor.get(), count - 1));
    }
  });

  const ask = useCallback(
    (action: IncomingWireAction) => {
      const wire = wires[cursor.get()];
      if (!wire) return;
      if (!ACTIONABLE.has(wire.state)) {
        setNotice({
          tone: "error",
          text: `Wire ${wire.paymentId} is waiting for the bank; it cannot be decided again.`,
        });
        return;
      }
      setDialogError(null);
      setPending({ wire, action });
    },
    [wires, cursor],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (pending || helpOpen || e.repeat || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (e.key === "?") {
        e.preventDefault();
        setHelpOpen(true);
      } else if (e.key === "j" || e.key === "ArrowDown") {
        e.preventDefault();
        table.current?.focusRow(cursor.get() + 1);
      } else if (e.key === "k" || e.key === "ArrowUp") {
        e.preventDefault();
        table.current?.focusRow(cursor.get() - 1);
      } else if (e.key in ACTION_KEYS) {
        e.preventDefault();
        ask(ACTION_KEYS[e.key]);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [pending, helpOpen, cursor, ask]);

  const confirm = () => {
    if (!pending || decide.isPending) return;
    const { wire, action } = pending;
    decide.mutate(
      {
        paymentId: wire.paymentId,
        accountNumber: wire.accountNumber,
        action,
        paymentTimestamp: wire.paymentTimestamp,
      },
      {
        onSuccess: (r) => {
          refocus.current = true;
          setPending(null);
          setNotice({
            tone: "ok",
            text: `${formatUsd(wire.amountCents)} from ${wire.originatorName}: ${r.message}`,
          });
        },
        onError: (e) => {
          const message = e instanceof ApiError ? e.message : "The decision could not be sent. Try again.";
          if (e instanceof ApiError && e.status === 409) {
            // Someone else was first, or the wire changed: the row shows its real state now.
            refocus.current = true;
            setPending(null);
            setNotice({ tone: "error", text: message });
          } else setDialogError(message);
        },
      },
    );
  };

  const stale = query.isError && !!data;

  return (
    <div className="space-y-6">
      <KeyboardPageHeader
        title="Incoming wires"
        summary={
          data
            ? `${count} waiting for a decision, oldest first. Each says how many approvers its policy requires.`
            : "Wires waiting for a decision, oldest first."
        }
        onShortcuts={() => setHelpOpen(true)}
      />

      <div aria-live="polite" role="status" className="min-h-0">
        {notice ? (
          <p
            className={
              notice.tone === "ok"
                ? "rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900"
                : "rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            }
          >
            {notice.text}
          </p>
        ) : null}
      </div>

      {stale ? (
        <p
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          The bank cannot be reached ({query.error.message}). This list is from{" "}
          {new Date(data.asOf).toLocaleTimeString()} and may be out of date; decisions wait until the bank
          answers.
        </p>
      ) : null}

      <Card aria-labelledby="queue-heading">
        <CardHeader
          id="queue-heading"
          title="Waiting for a decision"
          description={<FocusedWire cursor={cursor} wires={wires} />}
          action={<DecisionToolbar cursor={cursor} wires={wires} onAsk={ask} />}
        />
        <QueryState
          query={query}
          loading="Loading the queue"
          errorTitle="The queue could not be read"
          isEmpty={count === 0}
          empty={
            <EmptyState title="No incoming wires are waiting">
              New wires appear here within a few seconds.
            </EmptyState>
          }
        >
          <QueueTable ref={table} wires={wires} cursor={cursor} now={now} />
        </QueryState>
      </Card>

      {data ? <DecidedToday decided={data.decidedToday} /> : null}

      <DecisionDialog
        wire={pending?.wire ?? null}
        action={pending?.action ?? null}
        meId={meId}
        busy={decide.isPending}
        error={dialogError}
        onConfirm={confirm}
        onClose={() => {
          if (!decide.isPending) setPending(null);
        }}
      />
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}

/** The focused wire in words; the one line above the table that a j/k step changes. */
function FocusedWire({ cursor, wires }: { cursor: QueueCursor; wires: IncomingWire[] }) {
  const current = wires[useCursor(cursor, (i) => i)];
  return current
    ? `Focused: ${formatUsd(current.amountCents)} from ${current.originatorName}`
    : "Select a wire with j and k, or click it.";
}

/** The buttons that decide the focused wire; a step re-renders them only when that enables or disables them. */
function DecisionToolbar({
  cursor,
  wires,
  onAsk,
}: {
  cursor: QueueCursor;
  wires: IncomingWire[];
  onAsk: (action: IncomingWireAction) => void;
}) {
  const actionable = useCursor(cursor, (i) => !!wires[i] && ACTIONABLE.has(wires[i].state));
  return (
    <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Decide the focused wire">
      {(["approve", "cancel", "return"] as const).map((a) => (
        <Button
          key={a}
          size="sm"
          variant={a === "approve" ? "primary" : "secondary"}
          disabled={!actionable}
          onClick={() => onAsk(a)}
          aria-keyshortcuts={a[0]}
        >
          {ACTION_WORDS[a].verb} <kbd className="font-mono text-xs opacity-80">{a[0]}</kbd>
        </Button>
      ))}
    </div>
  );
}
