"use client";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { Badge } from "@/components/ui/badge.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Money } from "@/components/ui/money.tsx";
import type { HistoryItem } from "@/lib/dashboard-api/index.ts";
import { formatDay, formatInstant } from "@/lib/format/dates.ts";

function Detail({
  label,
  value,
  copy,
  mono,
}: {
  label: string;
  value: string | null | undefined;
  copy?: boolean;
  mono?: boolean;
}) {
  const shown = value?.trim() ? value : null;
  return (
    <div className="grid grid-cols-[9rem_minmax(0,1fr)] gap-3 border-b border-slate-100 py-2.5 text-sm last:border-b-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="flex min-w-0 items-start gap-1 text-slate-900">
        <span
          className={mono ? "min-w-0 font-mono text-[0.8125rem] leading-5 break-all" : "min-w-0 break-words"}
        >
          {shown ?? "—"}
        </span>
        {copy && shown ? <CopyButton text={shown} label={`Copy ${label.toLowerCase()}`} /> : null}
      </dd>
    </div>
  );
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A side sheet with everything the bank says about one transaction: a modal dialog that keeps
 * Tab inside itself, closes on Escape, the Close button or a click on the backdrop, and lets the
 * caller put focus back on the row that opened it. It is drawn below the idle-session warning
 * (z-40 under z-50), so that warning stays visible and reachable while the sheet is open.
 */
export function TransactionSheet({ item, onClose }: { item: HistoryItem | null; onClose: () => void }) {
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const open = item !== null;

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    // The page behind must not scroll under the sheet.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.body.style.overflow = overflow;
    };
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== "Tab" || !panelRef.current) return;
    const focusable = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (!focusable.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  if (!item) return null;
  return createPortal(
    <div className="fixed inset-0 z-40 flex justify-end">
      <div aria-hidden="true" className="sheet-backdrop absolute inset-0 bg-brand-900/45" onClick={onClose} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="transaction-sheet-title"
        onKeyDown={onKeyDown}
        className="sheet-panel relative flex h-full w-full max-w-[34rem] flex-col bg-white shadow-2xl"
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-5">
          <div>
            <h2 id="transaction-sheet-title" className="text-lg font-semibold text-slate-900">
              Transaction details
            </h2>
            <p className="mt-1 text-sm text-slate-600">{formatDay(item.date)}</p>
          </div>
          <button
            ref={closeRef}
            type="button"
            onClick={onClose}
            className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
          >
            Close
          </button>
        </div>
        <div className="flex-1 overflow-y-auto px-6 py-5">
          <div className="flex items-center gap-3">
            <Money cents={item.amountCents} direction={item.direction} className="text-3xl font-semibold" />
            <Badge tone={item.direction === "debit" ? "danger" : "success"}>
              {item.direction === "debit" ? "Debit" : "Credit"}
            </Badge>
            {item.memoPosted ? <Badge tone="warning">Memo posted</Badge> : null}
          </div>
          <p className="mt-1 text-sm text-slate-600">
            Balance after: <Money cents={item.availableAfterCents} className="font-medium text-slate-900" />
          </p>

          <section aria-labelledby="sheet-description" className="mt-6">
            <h3
              id="sheet-description"
              className="text-sm font-semibold tracking-wide text-brand-800 uppercase"
            >
              Description
            </h3>
            <ol className="mt-2 space-y-1 rounded-lg bg-slate-50 px-4 py-3 font-mono text-sm text-slate-800">
              {(item.descriptions.length ? item.descriptions : [item.description]).map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: description lines are positional
                <li key={i}>{line}</li>
              ))}
            </ol>
          </section>

          {item.sen ? (
            <section aria-labelledby="sheet-sen" className="mt-6">
              <h3 id="sheet-sen" className="text-sm font-semibold tracking-wide text-brand-800 uppercase">
                SEN counterparty
              </h3>
              <dl className="mt-2">
                <Detail label="Account" value={item.sen.counterpartyAccount} copy mono />
                <Detail label="Name" value={item.sen.counterpartyName} />
                <Detail label="Memo" value={item.sen.memo} />
                <Detail
                  label="Timestamp"
                  value={
                    item.sen.timestamp ? `${formatInstant(item.sen.timestamp)} (${item.sen.timestamp})` : null
                  }
                />
              </dl>
            </section>
          ) : null}

          <section aria-labelledby="sheet-refs" className="mt-6">
            <h3 id="sheet-refs" className="text-sm font-semibold tracking-wide text-brand-800 uppercase">
              References
            </h3>
            <dl className="mt-2">
              <Detail label="Date" value={formatDay(item.date)} />
              <Detail label="Effective date" value={formatDay(item.effectiveDate)} />
              <Detail label="Transaction code" value={item.code} mono />
              <Detail label="Payment ID" value={item.paymentId} copy mono />
              {item.paymentId ? (
                <div className="border-b border-slate-100 py-2.5 text-sm">
                  <Link
                    href={`/wire-summaries?uniqueId=${encodeURIComponent(item.uniqueId)}`}
                    className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
                  >
                    E-wire summary of this payment
                  </Link>
                </div>
              ) : null}
              <Detail label="Idempotency key" value={item.idempotencyKey} copy mono />
              <Detail label="Unique ID" value={item.uniqueId} copy mono />
            </dl>
          </section>
        </div>
      </div>
    </div>,
    document.body,
  );
}
