"use client";
// A modal dialog on the native <dialog>: showModal() traps focus and makes the page behind it
// inert, Escape closes it, and focus returns to what opened it. Confirmations of anything that
// moves money or decides a payment go through it.
import { type ComponentProps, type ReactNode, useEffect, useId, useRef } from "react";
import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/components/ui/cn.ts";

export function Dialog({
  open,
  onClose,
  title,
  description,
  className,
  children,
}: {
  open: boolean;
  /** Called on Escape, on a click outside the panel, and by the dialog's own buttons. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      const opener = document.activeElement as HTMLElement | null;
      d.showModal();
      return () => {
        if (d.open) d.close();
        opener?.focus?.();
      };
    }
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop is the mouse's Escape, which onCancel handles
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      className={cn(
        "m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40",
        className,
      )}
    >
      {open ? (
        <div className="flex flex-col gap-4 p-6">
          <div className="flex flex-col gap-1">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="text-sm text-slate-600">
                {description}
              </p>
            ) : null}
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

/** The dialog's buttons, the safe choice first in reading order and the action last. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap justify-end gap-2 pt-2">{children}</div>;
}

/**
 * The end of a confirmation: why the action failed, in words, when it did; then the safe choice
 * and the action, which says it is busy and takes no second press while it runs.
 */
export function ConfirmActions({
  error,
  pending,
  cancelLabel,
  onCancel,
  actionLabel,
  busyLabel,
  onAction,
  disabled = false,
  danger = false,
}: {
  error: string | null;
  pending: boolean;
  cancelLabel: string;
  onCancel: () => void;
  actionLabel: string;
  busyLabel: string;
  onAction: () => void;
  disabled?: boolean;
  /** A destructive action (delete, remove) is drawn in red. */
  danger?: boolean;
}) {
  return (
    <>
      {error ? (
        <p
          role="alert"
          className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
        >
          {error}
        </p>
      ) : null}
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button
          onClick={onAction}
          disabled={pending || disabled}
          aria-busy={pending || undefined}
          className={danger ? "bg-rose-700 hover:bg-rose-800" : undefined}
        >
          {pending ? busyLabel : actionLabel}
        </Button>
      </DialogActions>
    </>
  );
}

/** A confirmation in a dialog: what it concerns (children), then ConfirmActions, whose safe choice closes it. */
export function ConfirmDialog({
  open,
  onClose,
  title,
  description,
  children,
  ...actions
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
} & Omit<ComponentProps<typeof ConfirmActions>, "onCancel">) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      {children}
      <ConfirmActions {...actions} onCancel={onClose} />
    </Dialog>
  );
}
