// The Scheduled page's API: scheduled and recurring payments (series), their occurrences and history.
import { z } from "zod";
import { isIsoDay } from "../bank-api/dates.ts";
import { idempotencyKey } from "../bank-api/transfers.ts";
import { ScheduleSchema } from "../calendar/recurrence.ts";
import { AHEAD_KINDS, AHEAD_LIKELIHOODS } from "../schedules/balance-ahead.ts";
import {
  OCCURRENCE_STATUSES,
  SERIES_KINDS,
  SERIES_STATUSES,
  SWEEP_DIRECTIONS,
  SWEEP_MOVE_STATUSES,
  SWEEP_STATUSES,
} from "../schedules/states.ts";
import { SenTransferRequest } from "./transfers.ts";
import { WireDraftRequest } from "./wires.ts";

const name = z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters");

export const CreateScheduleRequest = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sen"), name, schedule: ScheduleSchema, transfer: SenTransferRequest }),
  z.object({ kind: z.literal("wire"), name, schedule: ScheduleSchema, wire: WireDraftRequest }),
]);
export type CreateScheduleInput = z.input<typeof CreateScheduleRequest>;

export const EditScheduleRequest = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("sen"),
    version: z.number().int().min(1),
    name,
    schedule: ScheduleSchema,
    transfer: SenTransferRequest,
  }),
  z.object({
    kind: z.literal("wire"),
    version: z.number().int().min(1),
    name,
    schedule: ScheduleSchema,
    wire: WireDraftRequest,
  }),
]);

export const ApproveScheduleRequest = z.object({ version: z.number().int().min(1) });
export const ScheduleStatusRequest = z.object({ action: z.enum(["pause", "resume", "cancel"]) });
export const SkipOccurrenceRequest = z.object({
  nominalDay: z.string().refine((s) => isIsoDay(s), "must be a date written YYYY-MM-DD"),
});

const person = z.object({ id: z.string(), email: z.string() });
export const SeriesSchema = z.object({
  id: z.string(),
  kind: z.enum(SERIES_KINDS),
  name: z.string(),
  status: z.enum(SERIES_STATUSES),
  version: z.number().int(),
  fromAccount: z.string(),
  amountCents: z.number().int(),
  counterparty: z.string(),
  /** The saved beneficiary a wire series was filled from, if one was. */
  beneficiaryId: z.string().nullable(),
  /** The bank request each occurrence sends (wire or SEN names; amount in dollars), as a draft's is shown. */
  request: z.record(z.string(), z.unknown()),
  schedule: ScheduleSchema,
  words: z.string(),
  nextDay: z.string().nullable(),
  preparedBy: person,
  approvals: z.array(person.extend({ at: z.string() })),
  approvalsRequired: z.number().int(),
  approved: z.boolean(),
});
export type Series = z.infer<typeof SeriesSchema>;

export const OccurrenceSchema = z.object({
  seriesId: z.string(),
  nominalDay: z.string(),
  day: z.string(),
  key: z.string(),
  status: z.enum(OCCURRENCE_STATUSES),
  amountCents: z.number().int().nullable(),
  paymentId: z.string().nullable(),
  channel: z.string().nullable(),
  reason: z.string().nullable(),
  attempts: z.number().int(),
  updatedAt: z.string(),
});
export type Occurrence = z.infer<typeof OccurrenceSchema>;

export const UpcomingSchema = z.object({
  seriesId: z.string(),
  name: z.string(),
  kind: z.enum(SERIES_KINDS),
  nominalDay: z.string(),
  day: z.string(),
  amountCents: z.number().int(),
  fromAccount: z.string(),
  counterparty: z.string(),
  approved: z.boolean(),
  /** What happened to it, or `paused` while its series is. */
  status: z.enum([...OCCURRENCE_STATUSES, "paused"]),
});
export type Upcoming = z.infer<typeof UpcomingSchema>;

export const SchedulesResponse = z.object({
  /** The bank's business date the page counts from. */
  today: z.string(),
  series: z.array(SeriesSchema),
  upcoming: z.array(UpcomingSchema),
});
export type SchedulesResponse = z.infer<typeof SchedulesResponse>;

export const SeriesResponse = z.object({ series: SeriesSchema, history: z.array(OccurrenceSchema) });
export type SeriesResponse = z.infer<typeof SeriesResponse>;

// Sweeps: a band kept on an account by moves from and to another of the customer's accounts.
const accountNumber = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "must be an account number (digits only)");
/** The largest band edge: $10 billion, in cents, well inside a safe integer. */
const MAX_BAND_CENTS = 1_000_000_000_000;
const bandCents = z.number().int("must be whole cents").min(0, "must not be negative").max(MAX_BAND_CENTS);

const sweepTerms = z.object({
  name,
  account: accountNumber,
  fundingAccount: accountNumber,
  lowCents: bandCents,
  highCents: bandCents,
  runAt: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time written HH:MM (24-hour)"),
});
const bandInOrder = <
  T extends { lowCents: number; highCents: number; account: string; fundingAccount: string },
>(
  s: z.ZodType<T>,
) =>
  s
    .refine((t) => t.highCents >= t.lowCents, {
      path: ["highCents"],
      message: "must be at least the band's low",
    })
    .refine((t) => t.account !== t.fundingAccount, {
      path: ["fundingAccount"],
      message: "must be another account than the one kept",
    });

export const CreateSweepRequest = bandInOrder(sweepTerms.extend({ idempotencyKey }));
export type CreateSweepInput = z.input<typeof CreateSweepRequest>;
export const EditSweepRequest = bandInOrder(sweepTerms.extend({ version: z.number().int().min(1) }));
export const ApproveSweepRequest = z.object({ version: z.number().int().min(1) });
export const SweepStatusRequest = z.object({ action: z.enum(["pause", "resume"]) });

export const SweepMoveSchema = z.object({
  day: z.string(),
  slot: z.string(),
  key: z.string(),
  status: z.enum(SWEEP_MOVE_STATUSES),
  direction: z.enum(SWEEP_DIRECTIONS).nullable(),
  amountCents: z.number().int(),
  availableCents: z.number().int().nullable(),
  reason: z.string().nullable(),
  at: z.string(),
});
export type SweepMove = z.infer<typeof SweepMoveSchema>;

export const SweepSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(SWEEP_STATUSES),
  version: z.number().int(),
  account: z.string(),
  fundingAccount: z.string(),
  lowCents: z.number().int(),
  highCents: z.number().int(),
  runAt: z.string(),
  preparedBy: person,
  approvals: z.array(person.extend({ at: z.string() })),
  approvalsRequired: z.number().int(),
  approved: z.boolean(),
  lastMoves: z.array(SweepMoveSchema),
});
export type Sweep = z.infer<typeof SweepSchema>;

export const SweepsResponse = z.object({ sweeps: z.array(SweepSchema) });
export type SweepsResponse = z.infer<typeof SweepsResponse>;
export const SweepResponse = z.object({ sweep: SweepSchema });
export type SweepResponse = z.infer<typeof SweepResponse>;

// The balance ahead of an account (GET /api/accounts/[accountNumber]/ahead).
const aheadKinds = z.object({
  scheduled: z.number().int(),
  sweep: z.number().int(),
  draft: z.number().int(),
  incoming_wire: z.number().int(),
});
const aheadFlow = z.object({
  key: z.string(),
  kind: z.enum(AHEAD_KINDS),
  /** How sure it is, in the words the page shows: scheduled, waiting for approval, not yet accepted. */
  likelihood: z.enum(AHEAD_LIKELIHOODS),
  amountCents: z.number().int(),
  label: z.string(),
});
/** The first day below zero or below the low alert line, and the payments out that lead there. */
const aheadShortfall = z.object({
  day: z.string(),
  projectedCents: z.number().int(),
  line: z.enum(["zero", "alert"]),
  lineCents: z.number().int(),
  causes: z.array(aheadFlow),
  /** Payments out before that day beyond the named causes. */
  moreCauses: z.number().int(),
});
export type AheadShortfallView = z.infer<typeof aheadShortfall>;
export const BalanceAheadResponse = z.object({
  accountNumber: z.string(),
  today: z.string(),
  availableCents: z.number().int(),
  days: z.array(
    z.object({
      day: z.string(),
      byKind: aheadKinds,
      flows: z.array(aheadFlow),
      projectedCents: z.number().int(),
    }),
  ),
  /** The account's low alert line, when its alert rule has one. */
  alertBelowCents: z.number().int().nullable(),
  shortfall: aheadShortfall.nullable(),
  /** Parts that could not be read (the incoming-wire queue when the bank does not answer it). */
  notes: z.array(z.string()),
});
export type BalanceAheadResponse = z.infer<typeof BalanceAheadResponse>;

// Accounts whose balance ahead falls short (GET /api/inbox/shortfalls).
export const ShortfallsResponse = z.object({
  today: z.string(),
  shortfalls: z.array(aheadShortfall.extend({ accountNumber: z.string(), accountName: z.string() })),
  notes: z.array(z.string()),
});
export type ShortfallsResponse = z.infer<typeof ShortfallsResponse>;
