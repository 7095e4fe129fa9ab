// The words of a payment series in one client-safe place: its kinds, its states and its
// occurrences' states (one tuple each; the types, the API's zod enums and the database's checks
// are built from them), and a SQL list of some of them. Pages, the server and the SQL read these.
import { ROLLS } from "../bank-api/business-days.ts";

/** What a series pays with: a SEN transfer between accounts at the bank, or a wire. */
export const SERIES_KINDS = ["wire", "sen"] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

/** active ↔ paused → cancelled; active → ended once its rule has no day left. */
export const SERIES_STATUSES = ["active", "paused", "cancelled", "ended"] as const;
export type SeriesStatus = (typeof SERIES_STATUSES)[number];

/** States in which a series can still be approved, edited, paused or resumed. */
export const LIVE_SERIES_STATUSES = ["active", "paused"] as const satisfies readonly SeriesStatus[];
export const isLiveSeries = (s: string): s is (typeof LIVE_SERIES_STATUSES)[number] =>
  (LIVE_SERIES_STATUSES as readonly string[]).includes(s);

/** due → sending → sent | queued (backup log) → sent | failed; due → skipped. */
export const OCCURRENCE_STATUSES = ["due", "sending", "sent", "queued", "failed", "skipped"] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];

/** Occurrences a run still has to send (a claimed one may belong to a run that died). */
export const OPEN_OCCURRENCE_STATUSES = ["due", "sending"] as const satisfies readonly OccurrenceStatus[];

export { ROLLS };

/** `'a', 'b'` for an `IN (...)` list (the values are this module's own words, never input). */
export const sqlWords = (words: readonly string[]) => words.map((s) => `'${s}'`).join(", ");

/** A database check that `column` holds one of `words`, written as PostgreSQL prints it back. */
export const checkOneOf = (column: string, words: readonly string[]) =>
  `${column} = ANY (ARRAY[${words.map((s) => `'${s}'::text`).join(", ")}])`;

/** A sweep runs while active; paused keeps it; deleted is its end (its moves stay in history). */
export const SWEEP_STATUSES = ["active", "paused", "deleted"] as const;
export type SweepStatus = (typeof SWEEP_STATUSES)[number];
export const LIVE_SWEEP_STATUSES = ["active", "paused"] as const satisfies readonly SweepStatus[];

/** fund: from the funding account into the kept one (below the band); sweep: the excess back. */
export const SWEEP_DIRECTIONS = ["fund", "sweep"] as const;
export type SweepDirection = (typeof SWEEP_DIRECTIONS)[number];

/** sending → sent | failed; inside: the balance was in the band, nothing moved; short: nothing to move from. */
export const SWEEP_MOVE_STATUSES = ["sending", "sent", "failed", "inside", "short"] as const;
export type SweepMoveStatus = (typeof SWEEP_MOVE_STATUSES)[number];
