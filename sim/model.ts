// The model: the little the simulator keeps of what the product should be (who may act, which
// limits are in force, each draft's votes, each series' approved terms, each sweep's band), which
// the workload updates from the answers and the auditor and the checker judge against.
import type { Call } from "./history.ts";
import type { Account, Person, SeriesPattern } from "./schedule.ts";

export interface Violation {
  invariant: string;
  /** The operation at which the checker saw it. */
  op: number;
  message: string;
  /** The operation that broke it, when the history tells (the first release of a draft paid twice). */
  cause?: number;
}

export type Role = "viewer" | "preparer" | "approver" | "admin";

export interface PersonState {
  id: string;
  email: string;
  password: string;
  role: Role;
  disabled: boolean;
  /** An admin reset the password: the session signed in with the temporary one may only change it. */
  resetPending: boolean;
  cookie: string | null;
  /** The session in hand was signed in with a temporary password. */
  temporary: boolean;
  /** Cookies of sessions that were signed out or ended by a reset: they must never act again. */
  revoked: string[];
  passwordChanges: number;
  /**
   * When the model last saw this person's credentials change (invited, reset, a password chosen
   * through a link): within a day of it their votes on money must not count. Null: never in this run.
   */
  credentialsAt: number | null;
  /** Sign-ins the person themselves attempted: every session of theirs must come from one of them. */
  ownSignIns: number;
  /** The secret of the person's two-step sign-in device, once they turned it on; null when off. */
  totpSecret?: string | null;
}

export interface DraftState {
  /** For a wire filled from a saved beneficiary: which, and the account it pays. */
  payee?: { n: number; account: string };
  id: string;
  kind: "wire" | "sen";
  from: string;
  cents: number;
  preparedBy: Person;
  /** Approvers whose release of it was answered 2xx, by sessions that could act. */
  approvers: Set<Person>;
  /**
   * The most votes that could count at once: at each release sent, its voters so far and its
   * sender, judged as they stood then. The release that decides is one of those.
   */
  bestEligible: number;
  /** Approvers whose release got no answer: the product may have recorded their vote. */
  unanswered: Set<Person>;
}

export interface WireState {
  paymentId: string;
  account: string;
  cents: number;
  timestamp: string;
  /** People whose approval of it was answered 2xx, and the most of them that could count at once. */
  votes: Set<Person>;
  bestEligible: number;
  unanswered: Set<Person>;
}

export interface ClockSeen {
  bank: number;
  t0: number;
  t1: number;
  bankMs: number;
}

export const PERMS: Record<string, Role[]> = {
  transfer: ["preparer", "approver", "admin"],
  release: ["approver", "admin"],
  act: ["approver", "admin"],
  admin: ["admin"],
};

export const dollars = (cents: number) => (cents / 100).toFixed(2);
/** What a role may do that moves, approves or administers money: granting any of it weakens a control. */
export const POWERS: Record<Role, string[]> = {
  viewer: [],
  preparer: ["transfer"],
  approver: ["transfer", "release"],
  admin: ["transfer", "release", "admin"],
};
export const grants = (from: Role, to: Role) => POWERS[to].some((x) => !POWERS[from].includes(x));
/** A 202 with `pending`: the change waits for a second admin. */
export const pendingOf = (c: Call) =>
  ((c.answer as { pending?: unknown[] } | undefined)?.pending?.length ?? 0) > 0 || c.status === 202;
export const tagOf = (draftId: string) => `S${draftId.replace(/-/g, "")}`;
/** A vote on money by someone whose credentials changed within this long does not count. */
export const CREDENTIALS_EMBARGO_MS = 24 * 60 * 60 * 1000;
/** One-time links in a mail's text. */
export const LINK_TOKEN = /\/account-link#([A-Za-z0-9_-]+)/g;

/** A series as the simulator set it up, and what people did to it since (the checker judges by it). */
export interface SeriesModel {
  id: string;
  version: number;
  rail: "sen" | "wire";
  from: Account;
  to: Account;
  /** Who it pays, as the bank names it: the account number a SEN transfer credits, or a wire's beneficiary account. */
  payee: string;
  cents: number;
  /**
   * The terms (`termsKey`: amount and payee) of every version the product called approved in an
   * answer: an occurrence paid with other terms went without the approval of what it paid.
   */
  approvedTerms: Set<string>;
  /** The schedule form's key, sent again with each change of it. */
  key: string;
  pattern: SeriesPattern;
  /** The first day of its rule, as the product stored it (the bank's business date when it was set up). */
  startsOn: string;
  /** Its status after each change, with the bank's business date of the change. */
  changes: { day: string; status: string }[];
  /** Nominal days a person skipped (the product said so). */
  skipped: Set<string>;
}

/** A series as the product answers it (the fields the simulator reads). */
export interface SeriesSeen {
  id: string;
  name: string;
  version: number;
  status: string;
  amountCents: number;
  approved: boolean;
  approvals: unknown[];
  schedule: { startsOn: string };
}

/** A series version's terms as the checker compares them with what the bank paid. */
export const termsKey = (cents: number, payee: string) => `${cents} to ${payee}`;

/** A sweep as the simulator set it up. */
export interface SweepModel {
  id: string;
  version: number;
  account: Account;
  funding: Account;
  lowCents: number;
  highCents: number;
  /** As the product last answered. */
  approved: boolean;
  status: string;
}

/** The kept and funding accounts' available balances at the bank once a business day's runs are over. */
export interface SweepLook {
  op: number;
  day: string;
  sweep: SweepModel;
  keptCents: number;
  fundingCents: number;
  /** The status of the day's `run` slot in `sweep_moves`, or null when the sweep did not run. */
  ran: string | null;
  /** Seconds waited for the runs to settle (the limit when they did not). */
  waited: number;
}

/**
 * Whether a sweep's account is outside its band although it need not be: above it (the excess can
 * always go back), or below it while the funding account had what it takes to reach the low.
 */
export const outOfBand = (l: Pick<SweepLook, "keptCents" | "fundingCents" | "sweep">) =>
  l.keptCents > l.sweep.highCents ||
  (l.keptCents < l.sweep.lowCents && l.fundingCents >= l.sweep.lowCents - l.keptCents);

/**
 * How long the runners have to finish a business day's occurrences and sweeps (they take about a
 * second). `SIM_RUNS_SETTLE_SECONDS` shortens it for a mutant's seed, whose sweep stays outside its
 * band every day and would wait out the whole limit on each.
 */
export const RUNS_SETTLE_MS = (Number(process.env.SIM_RUNS_SETTLE_SECONDS) || 30) * 1000;
