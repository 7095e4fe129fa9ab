// The approvals inbox (GET /api/inbox): everything waiting for the signed-in person that they may
// act on, oldest first, as one list of two kinds: drafts to release and incoming wires to decide.
// Each decision still goes to its own route (POST /api/drafts/[id]/release|reject,
// POST /api/incoming-wires/[paymentId]), which enforces every control.
import { z } from "zod";
import { IncomingWire } from "./incoming-wires.ts";
import { Draft } from "./wires.ts";

export const InboxItem = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("draft"),
    /** `draft:<id>`: unique across both kinds. */
    key: z.string(),
    waitingSince: z.string(),
    amountCents: z.number().int(),
    draft: Draft,
  }),
  z.object({
    kind: z.literal("incoming_wire"),
    /** `wire:<payment id>` */
    key: z.string(),
    waitingSince: z.string(),
    amountCents: z.number().int(),
    wire: IncomingWire,
  }),
]);
export type InboxItem = z.infer<typeof InboxItem>;

export const InboxQuery = z.object({
  view: z.enum(["items", "count"], { error: "must be items or count" }).default("items"),
});

export const InboxCount = z.object({
  count: z.number().int(),
  drafts: z.number().int(),
  incomingWires: z.number().int(),
  /** When the oldest waiting item arrived; null when nothing waits. */
  oldestSince: z.string().nullable(),
  /** Whether the user may act on anything of the kind at all (their role). */
  mayRelease: z.boolean(),
  mayDecideWires: z.boolean(),
});
export type InboxCount = z.infer<typeof InboxCount>;

/** A scheduled payment that did not go, told to its preparer and approvers (nothing to decide here). */
export const ScheduleNotice = z.object({
  /** `schedule:<series id>/<nominal day>` */
  key: z.string(),
  seriesId: z.string(),
  name: z.string(),
  day: z.string(),
  amountCents: z.number().int(),
  fromAccount: z.string(),
  counterparty: z.string(),
  reason: z.string(),
  at: z.string(),
});
export type ScheduleNotice = z.infer<typeof ScheduleNotice>;

/**
 * A statement subscription's business day given up after its attempts (the same people are told by
 * e-mail: the subscription's owner and the administrators). It stays while the day is failed; an
 * administrator's "Retry now" on the Statements page, or the subscription's cancellation, ends it.
 */
export const StatementNotice = z.object({
  /** `statement:<subscription id>/<business day>` */
  key: z.string(),
  subscriptionId: z.string(),
  name: z.string(),
  /** The business day whose 07:00 delivery failed, and the days its statement covers. */
  businessDay: z.string(),
  fromDay: z.string(),
  toDay: z.string(),
  accounts: z.array(z.string()),
  attempts: z.number().int(),
  reason: z.string(),
  failedAt: z.string(),
  /**
   * The newest later business day of the same subscription that was delivered, or null: what made
   * this day fail has passed, yet this day's file was still never sent.
   */
  laterDeliveredDay: z.string().nullable(),
});
export type StatementNotice = z.infer<typeof StatementNotice>;

export const InboxResponse = InboxCount.extend({
  items: z.array(InboxItem),
  /** Scheduled payments of the last days that did not go, newest first. */
  notices: z.array(ScheduleNotice),
  /** Statement deliveries given up and not yet delivered, newest day first. */
  statementNotices: z.array(StatementNotice),
  asOf: z.string(),
});
export type InboxResponse = z.infer<typeof InboxResponse>;

export const InboxAnswer = z.union([InboxResponse, InboxCount]);
