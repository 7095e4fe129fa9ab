// The one evaluator of approval policies and vote eligibility: from a plainly described payment,
// the policies in force and the votes with their voters as they stand now, it says how many
// distinct eligible approvers the payment needs, which policy asked for that and why, which votes
// still count, and whether they are enough. Pure (no database, no clock: the caller gives `now`),
// so every path (SEN send, wire, release, incoming wire, templates, schedules) asks it the same way.
import { hasPermission, isRole, type Permission } from "../auth/permissions.ts";
import { formatInstant } from "../format/dates.ts";

/** The rails a policy can name: a SEN transfer, an outgoing wire, an incoming wire's decision. */
export const RAILS = ["sen", "wire", "incoming_wire"] as const;
export type Rail = (typeof RAILS)[number];

export const RAIL_WORDS: Record<Rail, string> = {
  sen: "SEN transfers",
  wire: "Wires",
  incoming_wire: "Incoming wires",
};

/** A payment as the evaluator sees it: plain facts, whoever describes it (a form, a draft, a schedule). */
export interface PaymentFacts {
  rail: Rail;
  amountCents: number;
  sourceAccount: string;
  /** Who prepared it; null for an incoming wire (the bank's, no one here prepared it). */
  preparerId: string | null;
  /** The saved payee it goes to, when one filled it. */
  payee?: {
    /** When this payee was first paid; null when never. */
    firstPaidAt: string | null;
    /** When its account or bank details last changed (approved), or it was created. */
    changedAt: string | null;
    /** Who made that last change: they cannot approve a payment to it. */
    lastEditorId: string | null;
  } | null;
  /** Already moved today before this payment, in cents, by this preparer and from this account. */
  todayByPreparerCents?: number;
  todayByAccountCents?: number;
}

/** When a policy applies: every condition given must hold; none given matches every payment. */
export interface PolicyConditions {
  rails?: Rail[];
  sourceAccounts?: string[];
  /** The amount is above this (cents). */
  aboveCents?: number;
  /** The amount is at or below this (cents). */
  upToCents?: number;
  /** The payee was first paid, or changed, within this many days (or never paid). */
  payeeNewWithinDays?: number;
  preparerIds?: string[];
}

export interface ApproverGroup {
  name: string;
  userIds: string[];
}

export interface Policy {
  id: string;
  /** The policy in words, as the release and decision dialogs show it. */
  name: string;
  when: PolicyConditions;
  /** Distinct approvers required, none of them the preparer. */
  approvers: 0 | 1 | 2 | 3;
  /** Only these people may approve what this policy matches. */
  group?: ApproverGroup;
}

/** A daily total per preparer and per account above which even a small SEN transfer is a draft. */
export interface VelocityLimits {
  perPreparerDailyCents: number | null;
  perAccountDailyCents: number | null;
}

export interface PolicySet {
  policies: Policy[];
  velocity: VelocityLimits;
}

export interface Requirement {
  /** Distinct eligible approvers the payment needs. */
  approvers: number;
  /** The policy that decided (the most demanding match); null when none matched. */
  policy: Pick<Policy, "id" | "name"> | null;
  /** Why, in one sentence: "Wires over $1,000,000.00: 2 approvers". */
  why: string;
  /** Who may approve, when the deciding policy names a group. */
  group?: ApproverGroup;
}

const DAY_MS = 86_400_000;
const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const approversWord = (n: number) => (n === 0 ? "no approver" : n === 1 ? "1 approver" : `${n} approvers`);

/** Whether the payee is new or changed within `days` of `now`. */
function payeeIsNew(p: PaymentFacts["payee"], days: number, now: number): boolean {
  if (!p) return false;
  const within = (at: string | null) => at !== null && now - Date.parse(at) <= days * DAY_MS;
  return p.firstPaidAt === null || within(p.firstPaidAt) || within(p.changedAt);
}

export function policyMatches(policy: Policy, pay: PaymentFacts, now: number): boolean {
  const w = policy.when;
  if (w.rails && !w.rails.includes(pay.rail)) return false;
  if (w.sourceAccounts && !w.sourceAccounts.includes(pay.sourceAccount)) return false;
  if (w.aboveCents !== undefined && !(pay.amountCents > w.aboveCents)) return false;
  if (w.upToCents !== undefined && !(pay.amountCents <= w.upToCents)) return false;
  if (w.payeeNewWithinDays !== undefined && !payeeIsNew(pay.payee, w.payeeNewWithinDays, now)) return false;
  if (w.preparerIds && (pay.preparerId === null || !w.preparerIds.includes(pay.preparerId))) return false;
  return true;
}

/**
 * What the payment needs: the most demanding matching policy (most approvers; among equals, the
 * one with a group, then the first listed), raised to one approver when a SEN transfer would pass
 * a daily total. An outgoing wire and an incoming wire's decision always need at least one person
 * other than its preparer: no policy can let money leave by a wire with no second person.
 */
export function evaluate(pay: PaymentFacts, set: PolicySet, now: number): Requirement {
  let best: Policy | null = null;
  for (const p of set.policies) {
    if (!policyMatches(p, pay, now)) continue;
    if (!best || p.approvers > best.approvers || (p.approvers === best.approvers && p.group && !best.group))
      best = p;
  }
  let req: Requirement = best
    ? {
        approvers: best.approvers,
        policy: { id: best.id, name: best.name },
        why: `${best.name}: ${approversWord(best.approvers)}`,
        ...(best.group ? { group: best.group } : {}),
      }
    : { approvers: 0, policy: null, why: `${RAIL_WORDS[pay.rail]} no policy names: ${approversWord(0)}` };
  if (req.approvers === 0 && pay.rail !== "sen")
    req = { ...req, approvers: 1, why: `${RAIL_WORDS[pay.rail]} always need a second person: 1 approver` };
  if (req.approvers === 0 && pay.rail === "sen") {
    const v = set.velocity;
    const over = (limit: number | null, sofar: number | undefined) =>
      limit !== null && (sofar ?? 0) + pay.amountCents > limit;
    if (over(v.perPreparerDailyCents, pay.todayByPreparerCents))
      req = {
        approvers: 1,
        policy: { id: "velocity.preparer", name: "Daily total per preparer" },
        why: `Over the daily total of ${usd(v.perPreparerDailyCents ?? 0)} for one preparer: 1 approver`,
      };
    else if (over(v.perAccountDailyCents, pay.todayByAccountCents))
      req = {
        approvers: 1,
        policy: { id: "velocity.account", name: "Daily total per account" },
        why: `Over the daily total of ${usd(v.perAccountDailyCents ?? 0)} for one account: 1 approver`,
      };
  }
  return req;
}

/** The administrator's three thresholds, as they decided before policies existed. */
export interface Thresholds {
  senReleaseThresholdCents: number;
  releaseDualApprovalCents: number;
  incomingWireDualApprovalCents: number;
}

/** Daily totals that the default policy adds: $1,000,000.00 per preparer and $5,000,000.00 per account. */
export const DEFAULT_VELOCITY: VelocityLimits = {
  perPreparerDailyCents: 100_000_000,
  perAccountDailyCents: 500_000_000,
};

/** Today's behaviour as policies: the three thresholds, each a policy, plus the daily totals. */
export function defaultPolicies(t: Thresholds, velocity: VelocityLimits = DEFAULT_VELOCITY): PolicySet {
  const senDual = Math.max(t.senReleaseThresholdCents, t.releaseDualApprovalCents);
  return {
    policies: [
      {
        id: "default.sen",
        name: `SEN transfers over ${usd(t.senReleaseThresholdCents)}`,
        when: { rails: ["sen"], aboveCents: t.senReleaseThresholdCents },
        approvers: 1,
      },
      {
        id: "default.sen-dual",
        name: `SEN transfers over ${usd(senDual)}`,
        when: { rails: ["sen"], aboveCents: senDual },
        approvers: 2,
      },
      { id: "default.wire", name: "Wires", when: { rails: ["wire"] }, approvers: 1 },
      {
        id: "default.wire-dual",
        name: `Wires over ${usd(t.releaseDualApprovalCents)}`,
        when: { rails: ["wire"], aboveCents: t.releaseDualApprovalCents },
        approvers: 2,
      },
      { id: "default.incoming", name: "Incoming wires", when: { rails: ["incoming_wire"] }, approvers: 1 },
      {
        id: "default.incoming-dual",
        name: `Incoming wires over ${usd(t.incomingWireDualApprovalCents)}`,
        when: { rails: ["incoming_wire"], aboveCents: t.incomingWireDualApprovalCents },
        approvers: 2,
      },
    ],
    velocity,
  };
}

// Votes ----------------------------------------------------------------------------------------

/** A voter as they stand at the moment a vote decides, read under the deciding lock. */
export interface VoterState {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
  /** An administrator's password reset is waiting for the person to choose a new one. */
  passwordMustChange: boolean;
  lockedUntil: string | null;
  /**
   * Until when a recent credential change (an invitation, a reset) keeps this person from voting on
   * money; set from the credential embargo rule (lib/auth/credential-embargo.ts) where it is read.
   */
  credentialEmbargoUntil?: string | null;
}

/** The permission a vote on the rail uses. */
export const VOTE_PERMISSION: Record<Rail, Permission> = {
  sen: "wires.release",
  wire: "wires.release",
  incoming_wire: "wires.act",
};

/** Why this voter's vote does not count now, or null when it does (times in `timeZone`). */
export function whyIneligible(
  voter: VoterState,
  pay: PaymentFacts,
  req: Pick<Requirement, "group">,
  now: number,
  timeZone = "UTC",
): string | null {
  if (pay.preparerId !== null && voter.id === pay.preparerId) return "prepared this payment";
  if (voter.disabled) return "is disabled";
  if (!isRole(voter.role) || !hasPermission(voter.role, VOTE_PERMISSION[pay.rail]))
    return `is no longer an approver (now ${voter.role})`;
  if (voter.passwordMustChange) return "has a password reset pending";
  if (voter.lockedUntil && Date.parse(voter.lockedUntil) > now) return "is locked out after failed sign-ins";
  if (voter.credentialEmbargoUntil && Date.parse(voter.credentialEmbargoUntil) > now)
    return `had credentials changed recently: may vote from ${formatInstant(voter.credentialEmbargoUntil, timeZone)}`;
  if (pay.payee?.lastEditorId && voter.id === pay.payee.lastEditorId) return "last changed this payee";
  if (req.group && !req.group.userIds.includes(voter.id)) return `is not in the group ${req.group.name}`;
  return null;
}

export interface Tally {
  requirement: Requirement;
  /** Votes that count, in the order given, one per person. */
  counted: VoterState[];
  /** Votes that no longer count, with why. */
  struck: { voter: VoterState; why: string }[];
  /** The counted votes meet the requirement. */
  enough: boolean;
}

/** Counts the votes as their voters stand now against what the payment needs. */
export function tally(
  pay: PaymentFacts,
  set: PolicySet,
  voters: readonly VoterState[],
  now: number,
  timeZone = "UTC",
): Tally {
  const requirement = evaluate(pay, set, now);
  const seen = new Set<string>();
  const counted: VoterState[] = [];
  const struck: Tally["struck"] = [];
  for (const v of voters) {
    if (seen.has(v.id)) continue;
    seen.add(v.id);
    const why = whyIneligible(v, pay, requirement, now, timeZone);
    if (why) struck.push({ voter: v, why });
    else counted.push(v);
  }
  return { requirement, counted, struck, enough: counted.length >= Math.max(requirement.approvers, 1) };
}
