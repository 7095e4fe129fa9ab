"use client";
// The inbox's keyboard model: j/k (or the arrows) move, x selects, a approves (releases a draft),
// c cancels a wire or rejects a draft, r returns a wire, ? lists the keys. Keys typed into a field,
// the header's own keys and any open dialog are left alone.
import { useEffect } from "react";
import type { InboxAct } from "@/lib/approvals/draft-rules.ts";

const ACT_KEYS: Record<string, InboxAct> = { a: "approve", c: "cancel", r: "return" };

/** Keys typed into a field are the field's, never the inbox's. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

export interface InboxKeys {
  /** A dialog of the page is open: the keys are its own. */
  paused: boolean;
  cursor: number;
  /** The focused item's key, for x. */
  focusedKey: string | undefined;
  focusRow: (index: number) => void;
  toggle: (key: string) => void;
  ask: (act: InboxAct) => void;
  openHelp: () => void;
}

export function useInboxKeys({ paused, cursor, focusedKey, focusRow, toggle, ask, openHelp }: InboxKeys) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (paused || e.repeat || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (document.querySelector("dialog[open]")) return;
      // The menu and the header keep their own keys.
      if ((e.target as HTMLElement | null)?.closest?.("header")) return;
      if (e.key === "?") {
        e.preventDefault();
        openHelp();
      } else if (e.key === "j" || e.key === "ArrowDown") {
        e.preventDefault();
        focusRow(document.activeElement?.closest("tr[data-key]") ? cursor + 1 : cursor);
      } else if (e.key === "k" || e.key === "ArrowUp") {
        e.preventDefault();
        focusRow(cursor - 1);
      } else if (e.key === "x") {
        if (!focusedKey) return;
        e.preventDefault();
        toggle(focusedKey);
      } else if (e.key in ACT_KEYS) {
        e.preventDefault();
        ask(ACT_KEYS[e.key]);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [paused, cursor, focusedKey, focusRow, toggle, ask, openHelp]);
}
