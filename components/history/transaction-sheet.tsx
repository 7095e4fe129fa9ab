"use client";
import { useEffect, useRef } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Money } from "@/components/ui/money.tsx";
import type { HistoryItem } from "@/lib/dashboard-api/types.ts";
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
        <span className={mono ? "min-w-0 font-mono text-xs break-all" : "min-w-0 break-words"}>
          {shown ?? "—"}
        </span>
        {copy && shown ? <CopyButton text={shown} label={`Copy ${label.toLowerCase()}`} /> : null}
      </dd>
    </div>
  );
}

/**
 * A side sheet with everything the bank says about one transaction. A modal <dialog> makes the
 * rest of the page inert (focus stays inside), Escape closes it, and the caller puts focus back
 * on the row that opened it.
 */
export function TransactionSheet({ item, onClose }: { item: HistoryItem | null; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (item && !dialog.open) {
      dialog.showModal();
      closeRef.current?.focus();
    } else if (!item && dialog.open) dialog.close();
  }, [item]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click only serves the backdrop; Escape is the keyboard's way out
    <dialog
      ref={ref}
      className="sheet bg-white shadow-2xl"
      aria-labelledby="transaction-sheet-title"
      onClose={onClose}
      // A click on the backdrop (the dialog box itself, outside the panel) closes it; the
      // keyboard way out is Escape, which <dialog> handles itself.
      onClick={(e) => {
        if (e.target === e.currentTarget) e.currentTarget.close();
      }}
    >
      {item ? (
        <div className="flex h-full flex-col">
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
              onClick={() => ref.current?.close()}
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
                      item.sen.timestamp
                        ? `${formatInstant(item.sen.timestamp)} (${item.sen.timestamp})`
                        : null
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
                <Detail label="Idempotency key" value={item.idempotencyKey} copy mono />
                <Detail label="Unique ID" value={item.uniqueId} copy mono />
              </dl>
            </section>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
