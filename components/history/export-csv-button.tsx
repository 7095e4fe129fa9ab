"use client";
import { Button } from "@/components/ui/button.tsx";
import { Icon } from "@/components/ui/icon.tsx";
import type { HistoryItem } from "@/lib/dashboard-api/index.ts";

/** Downloads exactly the rows on screen as CSV, built in the browser (no second trip to the bank). */
export function ExportCsvButton({
  rows,
  accountNumber,
  from,
  to,
  filtered,
}: {
  rows: HistoryItem[];
  accountNumber: string;
  from: string;
  to: string;
  filtered: boolean;
}) {
  const download = async () => {
    // The CSV writer is only needed here, so it is loaded on the first export.
    const { historyCsvFilename, historyToCsv } = await import("@/lib/format/csv.ts");
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
  };
  return (
    <Button variant="secondary" size="md" onClick={() => void download()} disabled={!rows.length}>
      <Icon round>
        <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" />
      </Icon>
      Export CSV
      <span className="sr-only">
        {" "}
        of {rows.length} {rows.length === 1 ? "transaction" : "transactions"}
      </span>
    </Button>
  );
}
