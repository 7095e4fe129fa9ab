"use client";
// Toasts: short messages in a live region at the corner of the screen (screen readers announce
// them without moving focus). Each stays until dismissed or 12 seconds pass, longer while the
// pointer or focus is on it, so nobody loses one while reading.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn.ts";

export type ToastTone = "info" | "warning";

export interface ToastInput {
  title: string;
  body?: string;
  tone?: ToastTone;
}

interface ToastItem extends ToastInput {
  id: number;
}

const ToastContext = createContext<(t: ToastInput) => void>(() => {});

/** Shows a toast; outside a ToastProvider it does nothing. */
export function useToast(): (t: ToastInput) => void {
  return useContext(ToastContext);
}

const VISIBLE_MS = 12_000;
const MAX_TOASTS = 5;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const next = useRef(1);
  const show = useCallback((t: ToastInput) => {
    const id = next.current++;
    setItems((list) => [...list.slice(-(MAX_TOASTS - 1)), { ...t, id }]);
  }, []);
  const dismiss = useCallback((id: number) => setItems((list) => list.filter((t) => t.id !== id)), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <section
        aria-label="Messages"
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
      >
        {items.map((t) => (
          <Toast key={t.id} item={t} onDismiss={() => dismiss(t.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

function Toast({ item, onDismiss }: { item: ToastItem; onDismiss: () => void }) {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const t = setTimeout(onDismiss, VISIBLE_MS);
    return () => clearTimeout(t);
  }, [held, onDismiss]);
  return (
    <div
      role="status"
      data-toast
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
      className={cn(
        "pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border bg-white px-4 py-3 shadow-lg",
        item.tone === "warning" ? "border-amber-300" : "border-slate-200",
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          "mt-1.5 size-2 shrink-0 rounded-full",
          item.tone === "warning" ? "bg-amber-500" : "bg-brand-600",
        )}
      />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-slate-900">{item.title}</p>
        {item.body ? <p className="mt-0.5 text-sm text-slate-700">{item.body}</p> : null}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        aria-label={`Dismiss: ${item.title}`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          <path d="M5.3 4.3a1 1 0 0 0-1.4 1.4L8.6 10l-4.7 4.3a1 1 0 1 0 1.4 1.4l4.7-4.3 4.7 4.3a1 1 0 0 0 1.4-1.4L11.4 10l4.7-4.3a1 1 0 0 0-1.4-1.4L10 8.6 5.3 4.3Z" />
        </svg>
      </button>
    </div>
  );
}
