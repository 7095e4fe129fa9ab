"use client";
// The inbox's list of keys, opened with ? or the header's Shortcuts button.
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogActions } from "@/components/ui/dialog.tsx";

const SHORTCUTS = [
  ["j / ↓", "Next item"],
  ["k / ↑", "Previous item"],
  ["x", "Select or unselect the focused item"],
  ["a", "Approve: release a draft, approve a wire"],
  ["c", "Cancel a wire, reject a draft"],
  ["r", "Return a wire"],
  ["?", "This list"],
] as const;

export function InboxShortcuts({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {SHORTCUTS.map(([k, v]) => (
          <div key={k} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">{k}</kbd>
            </dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
