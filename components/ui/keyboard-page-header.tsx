"use client";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button.tsx";

/** The heading of a page worked by keyboard: its title, a line of what it holds, and the "?" key's help. */
export function KeyboardPageHeader({
  title,
  summary,
  onShortcuts,
}: {
  title: string;
  summary: ReactNode;
  onShortcuts: () => void;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-1 text-sm text-slate-600">{summary}</p>
      </div>
      <Button variant="secondary" size="sm" onClick={onShortcuts} aria-keyshortcuts="?">
        Keyboard shortcuts <kbd className="font-mono text-xs">?</kbd>
      </Button>
    </div>
  );
}
