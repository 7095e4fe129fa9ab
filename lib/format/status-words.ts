// One set of words for where money stands, on every page: the bank's payment statuses, the
// dashboard's draft states and an incoming wire's place in the queue. A page never shows the
// bank's own status names ("Pre-Approval", "In-Progress"); it asks here. Each word comes with a
// badge tone, a second signal beside the word, never the only one.
import type { DraftStatus } from "../approvals/draft-rules.ts";

export type StatusTone = "neutral" | "brand" | "success" | "warning" | "danger";

export interface StatusWords {
  word: string;
  tone: StatusTone;
}

/** The bank's payment_status values in words (an incoming wire in Pre-Approval waits for us). */
const PAYMENT: Record<string, StatusWords> = {
  "Pre-Approval": { word: "Awaiting approval", tone: "warning" },
  "In-Progress": { word: "In progress", tone: "brand" },
  Complete: { word: "Completed", tone: "success" },
  Canceled: { word: "Canceled", tone: "neutral" },
};

/**
 * A payment's bank status in words. An outgoing wire is in Pre-Approval only while it sits in the
 * bank's backup log during a wire-system outage: for it that means queued, not awaiting anyone.
 */
export function paymentStatusWords(status: string, direction?: string): StatusWords {
  if (status === "Pre-Approval" && direction === "Outgoing") return DRAFT.queued;
  return PAYMENT[status] ?? { word: status || "Unknown", tone: "neutral" };
}

/** The filter's choices: the bank's value, in the page's words. */
export const PAYMENT_STATUS_CHOICES = Object.entries(PAYMENT).map(([value, w]) => ({ value, word: w.word }));

const DRAFT = {
  pending: { word: "Awaiting approval", tone: "warning" },
  releasing: { word: "Releasing", tone: "brand" },
  queued: { word: "Queued for reprocessing", tone: "brand" },
  released: { word: "Released", tone: "success" },
  rejected: { word: "Rejected", tone: "danger" },
  failed: { word: "Refused by the bank", tone: "danger" },
} as const satisfies Record<DraftStatus, StatusWords>;

export function draftStatusWords(status: DraftStatus): StatusWords {
  return DRAFT[status];
}

/** Whether money is in: a credit only when an incoming wire was not canceled or returned. */
export function paymentMovesMoney(status: string): boolean {
  return status !== "Canceled";
}

/** "1 decision", "3 decisions": a count with its noun, singular for one. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? singular : plural}`;
}
