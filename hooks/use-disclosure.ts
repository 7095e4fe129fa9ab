"use client";
// A disclosure: a button that shows and hides a panel (aria-expanded, aria-controls). Escape
// closes it and gives focus back to the button. A popover over the page (`lightDismiss`) also
// closes on Escape pressed anywhere and on a click anywhere else; a panel in the page's flow
// hears Escape only from inside it, so that the Escape of a dialog elsewhere stays the dialog's.
import { useCallback, useEffect, useId, useRef, useState } from "react";

export function useDisclosure<P extends HTMLElement>({ lightDismiss = false } = {}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<P>(null);

  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open || !lightDismiss) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
    };
    const onClick = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!panel.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open, lightDismiss, close]);

  return {
    open,
    setOpen,
    /** Spread on the element that holds the button and the panel: Escape inside it closes. */
    containerProps: {
      onKeyDown: (e: React.KeyboardEvent) => {
        if (e.key === "Escape" && open && !lightDismiss) {
          e.preventDefault();
          close();
        }
      },
    },
    buttonProps: {
      ref: button,
      type: "button" as const,
      "aria-expanded": open,
      "aria-controls": panelId,
      onClick: () => setOpen((o) => !o),
    },
    panelProps: { ref: panel, id: panelId },
    panel,
  };
}
