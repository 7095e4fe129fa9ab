"use client";
import { Button } from "@/components/ui/button.tsx";
import { Icon } from "@/components/ui/icon.tsx";
import type { HistoryItem } from "@/lib/dashboard-api/index.ts";

/** Saves rows as a CSV file built in the browser. */
export async function downloadHistoryCsv(
  rows: HistoryItem[],
  accountNumber: string,
  from: string,
  to: string,
  filtered: boolean,
): Promise<void> {
  // The CSV writer is only needed here, so it is loaded on the first export.
  const { historyCsvFilename, historyToCsv } = await import("@/lib/format/history-csv.ts");
  // The byte-order mark lets spreadsheet programs read the file as UTF-8.
  const blob = new Blob(["\uFEFF", historyToCsv(rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = historyCsvFilename(accountNumber, from, to, filtered);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Exports the whole range, with the filters on screen: the pages not yet read are read first
 * (the panel shows how far, and can stop), then the file is saved.
 */
export function ExportCsvButton({
  onExport,
  busy,
  disabled,
  count,
}: {
  onExport: () => void;
  busy: boolean;
  disabled: boolean;
  count: number;
}) {
  return (
    <Button
      variant="secondary"
      size="md"
      onClick={onExport}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      <Icon round>
        <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" />
      </Icon>
      {busy ? "Exporting…" : "Export CSV"}
      <span className="sr-only">
        {" "}
        of the whole range ({count} {count === 1 ? "transaction" : "transactions"} read so far)
      </span>
    </Button>
  );
}
