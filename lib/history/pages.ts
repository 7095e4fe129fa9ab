// A long history range is read page by page: windows of at most a month, in the order the rows
// are shown (newest first reads the latest month first), each one request to the dashboard API.
import { addDays, daysBetween } from "../bank-api/dates.ts";

/** Days in one page: a month, well inside what one request may span. */
export const HISTORY_PAGE_DAYS = 31;

export interface HistoryWindow {
  from: string;
  to: string;
}

/** The windows covering from..to, in reading order. */
export function historyWindows(
  from: string,
  to: string,
  order: "A" | "D",
  size: number = HISTORY_PAGE_DAYS,
): HistoryWindow[] {
  const windows: HistoryWindow[] = [];
  if (order === "D") {
    for (let end = to; end >= from; end = addDays(end, -size)) {
      const start = addDays(end, -(size - 1));
      windows.push({ from: start < from ? from : start, to: end });
    }
  } else {
    for (let start = from; start <= to; start = addDays(start, size)) {
      const end = addDays(start, size - 1);
      windows.push({ from: start, to: end > to ? to : end });
    }
  }
  return windows;
}

/** Whole days the first `read` windows cover. */
export function daysRead(windows: readonly HistoryWindow[], read: number): number {
  return windows.slice(0, read).reduce((sum, w) => sum + daysBetween(w.from, w.to) + 1, 0);
}
