// The schedule: every operation of every actor and every fault, drawn from one seed before the
// run starts. Operations name people, accounts, drafts and wires symbolically ("a1", "A2",
// draft 7, wire 3); the run maps them to what the product created. Whatever the product answers,
// the schedule stays the same, so a seed is a replayable test case and a prefix of a schedule is
// a smaller one (what the shrinker bisects over).
import { createHash } from "node:crypto";
import { Prng } from "./prng.ts";

/**
 * People of the dashboard, by role. `flo` is the one whose role and status admins change; `rex` the
 * approver a rogue admin tries to take over; `vic` the approver whose role, status or password
 * changes between the two votes of one payment.
 */
export const PREPARERS = ["p1", "p2"] as const;
export const APPROVERS = ["a1", "a2", "a3"] as const;
export const ADMINS = ["ad1", "ad2"] as const;
export const PEOPLE = [...PREPARERS, ...APPROVERS, ...ADMINS, "v1", "flo", "rex", "vic"] as const;
/** People an admin invites during the run (the `invite` scene), one per scene, in this order. */
export const INVITEES = ["nu1", "nu2", "nu3"] as const;
export type Person = (typeof PEOPLE)[number] | (typeof INVITEES)[number];
export const INITIAL_ROLES: Record<(typeof PEOPLE)[number], "viewer" | "preparer" | "approver" | "admin"> = {
  p1: "preparer",
  p2: "preparer",
  a1: "approver",
  a2: "approver",
  a3: "approver",
  ad1: "admin",
  ad2: "admin",
  v1: "viewer",
  flo: "approver",
  rex: "approver",
  vic: "approver",
};

/** The dashboard customer's accounts (A0 is a DDA, A1–A3 are SEN) and the integrator's (B1, B2). */
export const DASH_SEN = ["A1", "A2", "A3"] as const;
export const DASH_ACCOUNTS = ["A0", ...DASH_SEN] as const;
export const CLIENT_ACCOUNTS = ["B1", "B2"] as const;
/**
 * The accounts of the schedules and sweeps (runs with `--days` only): K1, kept inside a band by a
 * sweep funded from F1, which holds little, so that the funding sometimes cannot cover the band.
 */
export const SWEEP_ACCOUNTS = ["K1", "F1"] as const;
export type Account =
  | (typeof DASH_ACCOUNTS)[number]
  | (typeof CLIENT_ACCOUNTS)[number]
  | (typeof SWEEP_ACCOUNTS)[number];
/** Opening balances of K1 and F1, and K1's band, in cents. */
export const SWEEP_OPENING_CENTS = { K1: 6_000_000, F1: 4_000_000 } as const;
export const SWEEP_BAND = { lowCents: 5_000_000, highCents: 8_000_000 } as const;
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR"] as const;
/** What a series repeats on: a weekday each week, or a day of each month (1-28). */
export type SeriesPattern =
  | { kind: "weekly"; weekday: (typeof WEEKDAYS)[number] }
  | { kind: "monthly-day"; day: number };
/** The account whose balance alert lines the run crosses on purpose. */
export const ALERT_ACCOUNT = "A3";
/** Opening balances, in cents. */
export const OPENING_CENTS = 500_000_000;
/** The alert lines of ALERT_ACCOUNT: just below and above its opening balance. */
export const ALERT_LINES = { belowCents: OPENING_CENTS - 3_000_000, aboveCents: OPENING_CENTS + 3_000_000 };

/**
 * How long the `bankPathFault` scene waits before releasing its drafts again: past the dashboards'
 * draft claim timeout (`DRAFT_CLAIM_STUCK_SECONDS=5` in sim/cluster.ts), so another approver may
 * take over a claim that a lost answer left.
 */
export const CLAIM_STUCK_WAIT_MS = 6_000;

export const DEFAULT_SEN_THRESHOLD = 25_000_000;
export const DEFAULT_DUAL_APPROVAL = 100_000_000;
/** Drafts above this need two approvers besides the preparer. */
export const DEFAULT_RELEASE_DUAL = 100_000_000;

/** A SEN transfer form as a person submits it, to one dashboard instance. */
type SenForm = { who: Person; from: Account; to: Account; cents: number; key: string; inst: number };

export type Op = { i: number; par?: boolean } & (
  | { kind: "deposit"; acct: Account; cents: number; bank: number }
  | ({
      kind: "sen";
      /** The connection drops this long after sending; the person then submits the same form again. */
      abortMs?: number;
      /**
       * Sized from the balance the person reads just before (`cents` unused): `all` of what is
       * available, or just `over` it (1 to 100 cents more).
       */
      size?: "all" | "over";
    } & SenForm)
  | { kind: "wire"; who: Person; from: Account; cents: number; draft: number; key: string; inst: number }
  | { kind: "edit"; who: Person; draft: number; cents: number; inst: number }
  | {
      kind: "release";
      who: Person;
      draft: number;
      copies: number;
      insts: number[];
      abortMs?: number;
      /** Sent this long after the operation before it ended: a release again once the claim is stuck. */
      afterMs?: number;
    }
  | { kind: "reject"; who: Person; draft: number; inst: number }
  | { kind: "inWire"; acct: Account; cents: number; wire: number; bank: number }
  | { kind: "decide"; who: Person; wire: number; action: "approve" | "cancel" | "return"; inst: number }
  | { kind: "wireSystem"; status: "up" | "down"; bank: number }
  | { kind: "settle"; bank: number }
  | { kind: "clock"; bank: number; seconds: number }
  | { kind: "v2"; from: Account; to: Account; cents: number; key: string; copies: number; bank: number }
  | { kind: "v2replay"; of: number; bank: number }
  | {
      kind: "settings";
      who: Person;
      setting: "senReleaseThresholdCents" | "incomingWireDualApprovalCents" | "releaseDualApprovalCents";
      cents: number;
      inst: number;
    }
  | { kind: "approveChanges"; who: Person; inst: number }
  | { kind: "role"; who: Person; target: Person; role: "viewer" | "preparer" | "approver"; inst: number }
  | { kind: "disable"; who: Person; target: Person; disabled: boolean; inst: number }
  | { kind: "reset"; who: Person; target: Person; inst: number }
  /**
   * A rogue admin resets the target's password alone and tries every way to a session as them: the
   * reset's answer, the admin's own mail box, the old password; then the target uses their own link.
   */
  | { kind: "takeOver"; who: Person; target: Person; inst: number }
  /** An admin invites a new person (the role asked for waits for a second admin) and tries to sign in as them. */
  | { kind: "invite"; who: Person; target: Person; role: "approver"; inst: number }
  /** An admin releases a draft with a session obtained as another person, when one was obtained. */
  | { kind: "borrowedRelease"; who: Person; as: Person; draft: number; inst: number }
  | { kind: "signIn"; who: Person; inst: number }
  | { kind: "signOut"; who: Person; inst: number }
  | ({ kind: "replayRevoked" } & SenForm)
  | { kind: "changePassword"; who: Person; inst: number }
  /** The person turns on two-step sign-in from their profile (password, then a code from the app). */
  | { kind: "factorOn"; who: Person; inst: number }
  /** An admin asks for the target's lost two-step device to be removed (a link e-mailed to them). */
  | { kind: "factorRemoval"; who: Person; target: Person; inst: number }
  /** The person opens the removal link from their mail box with their password: every session of theirs ends. */
  | { kind: "factorLink"; who: Person; inst: number }
  | { kind: "alertRule"; who: Person; acct: Account; inst: number }
  | { kind: "registerHook"; who: Person; acct: Account; inst: number }
  | { kind: "payee"; who: Person; payee: number; account: string; inst: number }
  | { kind: "payeeApprove"; who: Person; payee: number; inst: number }
  | { kind: "payeeWire"; who: Person; payee: number; cents: number; draft: number; key: string; inst: number }
  | { kind: "sinkMode"; mode: ReceiverMode }
  | { kind: "receiverMode"; mode: ReceiverMode }
  | { kind: "bankPath"; index: number; mode: BankPathMode }
  /** A page's read (the accounts list): it fills that instance's short cache of the user. */
  | { kind: "read"; who: Person; inst: number }
  | { kind: "streams" }
  | { kind: "kill"; target: "bank" | "dashboard"; index: number }
  | { kind: "check" }
  /**
   * A preparer sets up a recurring payment (series `series` of the run), from its first day on: a
   * SEN transfer to `to`, or a wire from the DDA to the beneficiary account `payee`.
   */
  | {
      kind: "series";
      who: Person;
      series: number;
      rail: "sen" | "wire";
      from: Account;
      to: Account;
      payee?: string;
      cents: number;
      pattern: SeriesPattern;
      key: string;
      inst: number;
    }
  /**
   * A preparer changes a series as last read: its amount, its payee (another account for SEN,
   * another beneficiary account for a wire), both needing approval again, or its name alone, which
   * keeps its approvals.
   */
  | {
      kind: "seriesEdit";
      who: Person;
      series: number;
      change: "amount" | "payee" | "rename";
      cents: number;
      to: Account;
      payee: string;
      inst: number;
    }
  /** An approver approves the series' version as last read. */
  | { kind: "seriesApprove"; who: Person; series: number; inst: number }
  | { kind: "seriesStatus"; who: Person; series: number; action: "pause" | "resume" | "cancel"; inst: number }
  /** A preparer skips one of the series' coming occurrences (the `ahead`-th, as the page lists them). */
  | { kind: "skip"; who: Person; series: number; ahead: number; inst: number }
  /** A preparer sets up a sweep: `account` kept inside a band, funded from and swept to `funding`. */
  | {
      kind: "sweep";
      who: Person;
      sweep: number;
      account: Account;
      funding: Account;
      lowCents: number;
      highCents: number;
      key: string;
      inst: number;
    }
  | { kind: "sweepApprove"; who: Person; sweep: number; inst: number }
  | { kind: "sweepStatus"; who: Person; sweep: number; action: "pause" | "resume"; inst: number }
  /**
   * The bank's clock moves on `days` business days, a day at a time, through bank `bank`'s sandbox;
   * on each business day every dashboard's runner runs the day's occurrences and sweeps.
   */
  | { kind: "advance"; days: number; bank: number }
);
export type OpKind = Op["kind"];
/** An operation before it has its place in the schedule. */
type NewOp = Op extends infer T ? (T extends unknown ? Omit<T, "i"> : never) : never;
export type ReceiverMode = "up" | "down" | "slow" | "error";
/** The wire from a dashboard to its bank: whole, or losing, delaying or cutting some answers. */
export type BankPathMode = "up" | "lost" | "slow" | "cut" | "held";

export interface ScheduleOptions {
  seed: number;
  ops: number;
  instances: number;
  /** Kill and restart processes (off for a single PGlite instance: nothing may share it). */
  kills: boolean;
  /**
   * Business days the bank's clock moves on over the run, with schedules and sweeps as actors
   * (0 or unset: none, and the schedule is the one the seed always drew).
   */
  days?: number;
  /**
   * A fixed scene played first, drawing nothing from the seed (the rest of the schedule is the
   * one the seed always drew, after it). `claim-overlap`: a wire draft released, and released
   * again by the same approver in another tab while the bank's answer to the first is held (a
   * release claim is stuck only after DRAFT_CLAIM_STUCK_SECONDS; before it, the second is refused).
   */
  scene?: "claim-overlap";
}

export const SCENES = ["claim-overlap"] as const;

export interface Schedule {
  seed: number;
  ops: Op[];
  hash: string;
}

/** The weights of single operations (macros are drawn beside them). */
const SINGLE = {
  deposit: 8,
  sen: 10,
  wire: 6,
  edit: 2,
  release: 7,
  reject: 2,
  inWire: 5,
  decide: 7,
  settle: 3,
  v2: 7,
  v2replay: 3,
  signIn: 2,
  settings: 1,
  approveChanges: 1,
  role: 1,
  disable: 1,
  registerHook: 1,
  payee: 2,
  macro: 14,
} as const;

const MACROS = {
  outageRelease: 3,
  resetVote: 3,
  signOutReplay: 2,
  alertJiggle: 3,
  settingsRaise: 2,
  clockSkew: 2,
  idempotency: 2,
  receiverOutage: 1,
  sinkOutage: 1,
  kill: 2,
  twoInstances: 2,
  bigRelease: 2,
  payeeWire: 3,
  bankPathFault: 3,
  drain: 3,
  staleRead: 3,
  rogueAdmin: 2,
  invite: 1,
  voteThenChange: 3,
} as const;

/** A form key for an operation of a scene that draws nothing: a name-based UUID of the seed and the operation. */
function sceneKey(seed: number, op: number): string {
  const h = createHash("sha256").update(`${seed}:${op}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function makeSchedule(o: ScheduleOptions): Schedule {
  const r = new Prng(o.seed);
  const ops: Op[] = [];
  let drafts = 0;
  let wires = 0;
  let invites = 0;
  const v2Ops: number[] = [];
  const inst = () => r.int(o.instances);
  const push = (op: NewOp) => ops.push({ ...op, i: ops.length } as Op);
  const dollars = (lo: number, hi: number) => r.range(lo * 100, hi * 100);
  const approver = () => r.pick(APPROVERS);
  const preparer = () => r.pick(PREPARERS);
  const dashSen = () => r.pick(DASH_SEN);
  const twoSen = () => {
    const from = dashSen();
    let to = dashSen();
    while (to === from) to = dashSen();
    return [from, to] as const;
  };
  const anyDraft = () => (drafts ? r.int(drafts) : -1);
  const anyWire = () => (wires ? r.int(wires) : -1);
  const newWire = (cents: number, bank = r.int(o.instances)) => {
    push({ kind: "inWire", acct: r.pick(DASH_ACCOUNTS), cents, wire: wires, bank });
    return wires++;
  };
  const newDraft = (who: Person, cents: number) => {
    push({
      kind: "wire",
      who,
      from: r.pick(DASH_ACCOUNTS),
      cents,
      draft: drafts,
      key: r.guid(),
      inst: inst(),
    });
    return drafts++;
  };

  // Every run starts as a fresh deployment does: every dashboard instance opens its first live
  // stream at the same moment.
  push({ kind: "streams" });
  if (o.scene === "claim-overlap") {
    // Every answer from bank 0 to a write is held 1.5 s: the first release is still at the bank
    // when the second, half a second later, finds its claim.
    push({ kind: "bankPath", index: 0, mode: "held" });
    push({
      kind: "wire",
      who: PREPARERS[0],
      from: DASH_ACCOUNTS[0],
      cents: 100_000,
      draft: drafts,
      key: sceneKey(o.seed, ops.length),
      inst: 0,
    });
    for (const afterMs of [0, 500])
      push({ kind: "release", who: APPROVERS[0], draft: drafts, copies: 1, insts: [0], afterMs, par: true });
    drafts++;
    push({ kind: "bankPath", index: 0, mode: "up" });
  }
  const days = o.days ?? 0;
  const scheduled = scheduleActors(o, push);
  if (days) scheduled.start();

  const macro = (name: keyof typeof MACROS) => {
    switch (name) {
      case "outageRelease": {
        // A wire released while the wire system is down, by one approver clicking again (and in
        // two tabs, on two instances) before the first answer came back.
        const bank = r.int(o.instances);
        push({ kind: "wireSystem", status: "down", bank });
        const d = newDraft(preparer(), dollars(1_000, 90_000));
        const copies = r.range(2, 4);
        push({
          kind: "release",
          who: approver(),
          draft: d,
          copies,
          insts: Array.from({ length: copies }, inst),
        });
        if (r.chance(0.5)) push({ kind: "release", who: approver(), draft: d, copies: 1, insts: [inst()] });
        push({ kind: "wireSystem", status: "up", bank: r.int(o.instances) });
        push({ kind: "settle", bank: r.int(o.instances) });
        return;
      }
      case "resetVote": {
        // An incoming wire above the two-approver limit: one approver votes, an admin resets a
        // second approver's password, the approver chooses a new one through the link e-mailed to
        // them, and within a day of it their deciding vote is refused.
        const w = newWire(dollars(1_000_001, 1_500_000));
        const [first, second] = r.chance(0.5) ? (["a1", "a3"] as const) : (["a2", "a3"] as const);
        push({ kind: "decide", who: first, wire: w, action: "approve", inst: inst() });
        const admin = r.pick(ADMINS);
        push({ kind: "reset", who: admin, target: second, inst: inst() });
        // Where a reset of an approver waits for a second admin, the other one approves it.
        push({ kind: "approveChanges", who: admin === "ad1" ? "ad2" : "ad1", inst: inst() });
        push({ kind: "signIn", who: second, inst: inst() });
        push({ kind: "decide", who: second, wire: w, action: "approve", inst: inst() });
        push({ kind: "changePassword", who: second, inst: inst() });
        return;
      }
      case "signOutReplay": {
        const who = r.pick([...PREPARERS, ...APPROVERS]);
        push({ kind: "signOut", who, inst: inst() });
        const [from, to] = twoSen();
        push({ kind: "replayRevoked", who, from, to, cents: dollars(1, 500), key: r.guid(), inst: inst() });
        push({ kind: "signIn", who, inst: inst() });
        return;
      }
      case "alertJiggle": {
        // The alert account's balance crosses its lines back and forth while the receiver fails:
        // the bank's retries then arrive in any order.
        push({ kind: "receiverMode", mode: r.pick(["error", "down", "slow"] as const) });
        const other = r.pick(["A1", "A2"] as const);
        for (let k = r.range(2, 4); k > 0; k--) {
          const cents = dollars(40_000, 60_000);
          push({
            kind: "sen",
            who: preparer(),
            from: ALERT_ACCOUNT,
            to: other,
            cents,
            key: r.guid(),
            inst: inst(),
          });
          push({
            kind: "sen",
            who: preparer(),
            from: other,
            to: ALERT_ACCOUNT,
            cents,
            key: r.guid(),
            inst: inst(),
          });
        }
        push({ kind: "receiverMode", mode: "up" });
        return;
      }
      case "settingsRaise": {
        // One admin raises the release threshold; a transfer between the old and the new line follows.
        const cents = dollars(300_000, 600_000);
        push({
          kind: "settings",
          who: r.pick(ADMINS),
          setting: "senReleaseThresholdCents",
          cents,
          inst: inst(),
        });
        if (r.chance(0.5)) push({ kind: "approveChanges", who: r.pick(ADMINS), inst: inst() });
        const [from, to] = twoSen();
        push({
          kind: "sen",
          who: preparer(),
          from,
          to,
          cents: dollars(250_001, 299_999),
          key: r.guid(),
          inst: inst(),
        });
        push({
          kind: "settings",
          who: r.pick(ADMINS),
          setting: "senReleaseThresholdCents",
          cents: DEFAULT_SEN_THRESHOLD,
          inst: inst(),
        });
        return;
      }
      case "clockSkew": {
        // The sandbox clock moves on one bank; a wire arriving through another one tells its time.
        const bank = r.int(o.instances);
        push({ kind: "clock", bank, seconds: r.range(120, 600) });
        newWire(dollars(100, 5_000), (bank + 1) % o.instances);
        return;
      }
      case "idempotency": {
        const from = r.pick(CLIENT_ACCOUNTS);
        const copies = r.pick([2, 2, 50]);
        v2Ops.push(ops.length);
        push({
          kind: "v2",
          from,
          to: r.pick(DASH_SEN),
          cents: dollars(1, 2_000),
          key: r.guid(),
          copies,
          bank: r.int(o.instances),
        });
        return;
      }
      case "receiverOutage": {
        push({ kind: "receiverMode", mode: r.pick(["error", "down", "slow"] as const) });
        for (let k = r.range(2, 5); k > 0; k--)
          push({ kind: "deposit", acct: dashSen(), cents: dollars(1, 900), bank: r.int(o.instances) });
        push({ kind: "receiverMode", mode: "up" });
        return;
      }
      case "bankPathFault": {
        // The wire between one dashboard and its bank loses, delays or cuts answers after the bank
        // has acted, while people on that instance transfer, release (sometimes through the
        // backup log, the wire system down) and decide incoming wires.
        const i = inst();
        push({ kind: "bankPath", index: i, mode: r.pick(["lost", "slow", "cut"] as const) });
        const outage = r.chance(0.5);
        if (outage) push({ kind: "wireSystem", status: "down", bank: i });
        const released: { draft: number; who: Person }[] = [];
        for (let k = r.range(2, 4); k > 0; k--) {
          const [from, to] = twoSen();
          push({ kind: "sen", who: preparer(), from, to, cents: dollars(1, 900), key: r.guid(), inst: i });
          const d = newDraft(preparer(), dollars(100, 9_000));
          const who = approver();
          push({ kind: "release", who, draft: d, copies: 1, insts: [i] });
          released.push({ draft: d, who });
        }
        push({ kind: "bankPath", index: i, mode: "up" });
        // Each of those drafts released again by the next approver, on another instance, once a
        // claim left by a lost answer is stuck (DRAFT_CLAIM_STUCK_SECONDS, 5 s in the simulator),
        // the wire system still as it was: a draft whose first send the bank took must not be sent
        // a second time. Nothing is drawn here, so the rest of the seed's schedule is unchanged.
        for (const [k, { draft, who }] of released.entries())
          push({
            kind: "release",
            who: APPROVERS[(APPROVERS.indexOf(who as (typeof APPROVERS)[number]) + 1) % APPROVERS.length],
            draft,
            copies: 1,
            insts: [(i + 1) % o.instances],
            ...(k === 0 ? { afterMs: CLAIM_STUCK_WAIT_MS } : {}),
          });
        if (outage) push({ kind: "wireSystem", status: "up", bank: r.int(o.instances) });
        push({ kind: "settle", bank: r.int(o.instances) });
        return;
      }
      case "drain": {
        // Money near zero: an account emptied on purpose, then asked for just more than it holds,
        // on two instances at once; a deposit brings it back for the rest of the run.
        const [from, to] = twoSen();
        const all = ops.length;
        push({ kind: "sen", who: preparer(), from, to, cents: 0, key: r.guid(), inst: inst(), size: "all" });
        // All of it is above the release limits: two approvers release that SEN draft.
        const first = approver();
        const second = APPROVERS.filter((a) => a !== first)[r.int(APPROVERS.length - 1)];
        for (const who of [first, second])
          push({ kind: "release", who, draft: 10_000 + all, copies: 1, insts: [inst()] });
        for (let k = r.range(1, 3); k > 0; k--)
          push({
            kind: "sen",
            who: preparer(),
            from,
            to,
            cents: 0,
            key: r.guid(),
            inst: inst(),
            size: "over",
          });
        // The databases are read while the account is at its lowest, before the deposits below.
        push({ kind: "check" });
        push({ kind: "deposit", acct: from, cents: dollars(1_000, 5_000), bank: r.int(o.instances) });
        push({ kind: "sen", who: preparer(), from, to, cents: 0, key: r.guid(), inst: inst(), size: "over" });
        push({ kind: "check" });
        push({ kind: "deposit", acct: from, cents: dollars(1_000_000, 5_000_000), bank: r.int(o.instances) });
        return;
      }
      case "staleRead": {
        // flo reads on one instance, an admin changes flo on another, and flo acts on the first
        // within the second its cache of the user lasts: the change must hold there already.
        if (o.instances < 2) return;
        const a = inst();
        const b = (a + 1) % o.instances;
        const admin = r.pick(ADMINS);
        const other = admin === "ad1" ? "ad2" : "ad1";
        const change = r.pick(["role", "disable", "reset"] as const);
        push({ kind: "read", who: "flo", inst: a });
        if (change === "role") push({ kind: "role", who: admin, target: "flo", role: "viewer", inst: b });
        else if (change === "disable")
          push({ kind: "disable", who: admin, target: "flo", disabled: true, inst: b });
        else push({ kind: "reset", who: admin, target: "flo", inst: b });
        const [from, to] = twoSen();
        push({ kind: "sen", who: "flo", from, to, cents: dollars(1, 500), key: r.guid(), inst: a });
        if (wires) push({ kind: "decide", who: "flo", wire: anyWire(), action: "approve", inst: a });
        // Back as before, for the rest of the run (a raise or an enabling waits for a second admin).
        if (change === "role")
          push({
            kind: "role",
            who: admin,
            target: "flo",
            role: r.pick(["preparer", "approver"] as const),
            inst: b,
          });
        else if (change === "disable")
          push({ kind: "disable", who: admin, target: "flo", disabled: false, inst: b });
        else push({ kind: "signIn", who: "flo", inst: a });
        push({ kind: "approveChanges", who: other, inst: b });
        if (change === "reset") push({ kind: "changePassword", who: "flo", inst: a });
        // The second factor: flo turns on two-step sign-in on A; an admin asks on B for flo's
        // device to be removed and the second admin approves; flo reads on A, opens the e-mailed
        // link on B (every session of flo's ends), and the old session sends a transfer on A
        // within the second A's cache of flo lasts; flo then signs in again on A. Nothing is
        // drawn here, so the rest of the seed's schedule is unchanged.
        push({ kind: "factorOn", who: "flo", inst: a });
        push({ kind: "factorRemoval", who: admin, target: "flo", inst: b });
        push({ kind: "approveChanges", who: other, inst: b });
        push({ kind: "read", who: "flo", inst: a });
        push({ kind: "factorLink", who: "flo", inst: b });
        push({
          kind: "replayRevoked",
          who: "flo",
          from,
          to,
          cents: 100 + ops.length,
          key: sceneKey(o.seed, ops.length),
          inst: a,
        });
        push({ kind: "signIn", who: "flo", inst: a });
        return;
      }
      case "rogueAdmin": {
        // The rogue admin: demotes an approver to viewer (at once), resets the viewer's password
        // alone, tries every way to a working session as them, asks to make them an approver again
        // (the second admin approves), votes on a large draft and tries to cast its second vote as them.
        const admin = r.pick(ADMINS);
        const other = admin === "ad1" ? "ad2" : "ad1";
        const d = newDraft(preparer(), dollars(1_000_001, 1_400_000));
        push({ kind: "role", who: admin, target: "rex", role: "viewer", inst: inst() });
        push({ kind: "takeOver", who: admin, target: "rex", inst: inst() });
        push({ kind: "role", who: admin, target: "rex", role: "approver", inst: inst() });
        push({ kind: "approveChanges", who: other, inst: inst() });
        push({ kind: "release", who: admin, draft: d, copies: 1, insts: [inst()] });
        push({ kind: "borrowedRelease", who: admin, as: "rex", draft: d, inst: inst() });
        // rex, who chose the new password through the link, is within a day of the reset.
        push({ kind: "release", who: "rex", draft: d, copies: 1, insts: [inst()] });
        return;
      }
      case "invite": {
        // Invite and sign in as: an admin invites an approver, tries to sign in as them, and once
        // the second admin approved the role, tries to cast a large draft's second vote as them; the
        // newcomer's own vote within a day of the invitation must not count either.
        if (invites >= INVITEES.length) return;
        const nu = INVITEES[invites++];
        const admin = r.pick(ADMINS);
        const other = admin === "ad1" ? "ad2" : "ad1";
        const d = newDraft(preparer(), dollars(1_000_001, 1_400_000));
        push({ kind: "invite", who: admin, target: nu, role: "approver", inst: inst() });
        push({ kind: "approveChanges", who: other, inst: inst() });
        push({ kind: "release", who: admin, draft: d, copies: 1, insts: [inst()] });
        push({ kind: "borrowedRelease", who: admin, as: nu, draft: d, inst: inst() });
        push({ kind: "release", who: nu, draft: d, copies: 1, insts: [inst()] });
        return;
      }
      case "voteThenChange": {
        // A role change between votes: vic casts the first of two votes on a large draft or an
        // incoming wire above the limit, is then demoted, disabled or reset, and another approver
        // casts the second: vic's vote no longer counts, so nothing may leave.
        const admin = r.pick(ADMINS);
        const other = admin === "ad1" ? "ad2" : "ad1";
        const change = r.pick(["demote", "disable", "reset"] as const);
        const second = r.pick(["a1", "a2"] as const);
        const onWire = r.chance(0.5);
        const w = onWire ? newWire(dollars(1_000_001, 1_500_000)) : -1;
        const d = onWire ? -1 : newDraft(preparer(), dollars(1_000_001, 1_400_000));
        const vote = (who: Person) =>
          onWire
            ? push({ kind: "decide", who, wire: w, action: "approve", inst: inst() })
            : push({ kind: "release", who, draft: d, copies: 1, insts: [inst()] });
        vote("vic");
        if (change === "demote")
          push({ kind: "role", who: admin, target: "vic", role: "viewer", inst: inst() });
        else if (change === "disable")
          push({ kind: "disable", who: admin, target: "vic", disabled: true, inst: inst() });
        else {
          // A reset of an approver waits for the second admin; vic then chooses a password by the link.
          push({ kind: "reset", who: admin, target: "vic", inst: inst() });
          push({ kind: "approveChanges", who: other, inst: inst() });
        }
        vote(second);
        // vic back as before for the rest of the run (a raise or an enabling waits for a second admin).
        if (change === "demote")
          push({ kind: "role", who: admin, target: "vic", role: "approver", inst: inst() });
        else if (change === "disable")
          push({ kind: "disable", who: admin, target: "vic", disabled: false, inst: inst() });
        if (change !== "reset") push({ kind: "approveChanges", who: other, inst: inst() });
        return;
      }
      case "sinkOutage": {
        push({ kind: "sinkMode", mode: r.pick(["error", "down", "slow"] as const) });
        for (let k = r.range(2, 5); k > 0; k--)
          push({ kind: "deposit", acct: "A2", cents: dollars(1, 900), bank: r.int(o.instances) });
        push({ kind: "sinkMode", mode: "up" });
        return;
      }
      case "kill": {
        if (!o.kills) return;
        // In the middle of traffic: the operations in flight meet the crash.
        push({
          kind: "kill",
          target: r.chance(0.5) ? "bank" : "dashboard",
          index: r.int(o.instances),
          par: true,
        });
        return;
      }
      case "bigRelease": {
        // A draft above the release dual-approval limit: one approver, then (mostly) a second.
        const d = newDraft(preparer(), dollars(1_000_001, 1_400_000));
        const [x, y] = r.chance(0.5) ? (["a1", "a2"] as const) : (["a2", "a3"] as const);
        push({ kind: "release", who: x, draft: d, copies: 1, insts: [inst()] });
        if (r.chance(0.3)) push({ kind: "release", who: x, draft: d, copies: 1, insts: [inst()] });
        if (r.chance(0.8)) push({ kind: "release", who: y, draft: d, copies: 1, insts: [inst()] });
        return;
      }
      case "payeeWire": {
        // A payee's account changes (a second person approves it, or not), then a wire to it is
        // prepared from the saved details and released.
        const payee = r.int(4);
        const author = r.pick([...PREPARERS, ...APPROVERS]);
        push({
          kind: "payee",
          who: author,
          payee,
          account: String(r.range(10_000_000, 99_999_999)),
          inst: inst(),
        });
        if (r.chance(0.6)) push({ kind: "payeeApprove", who: r.pick(APPROVERS), payee, inst: inst() });
        const d = drafts++;
        push({
          kind: "payeeWire",
          who: preparer(),
          payee,
          cents: dollars(100, 20_000),
          draft: d,
          key: r.guid(),
          inst: inst(),
        });
        push({ kind: "release", who: approver(), draft: d, copies: 1, insts: [inst()] });
        return;
      }
      case "twoInstances": {
        // The same release sent to every instance at once.
        const d = newDraft(preparer(), dollars(500, 20_000));
        push({
          kind: "release",
          who: approver(),
          draft: d,
          copies: o.instances,
          insts: Array.from({ length: o.instances }, (_, k) => k),
        });
        return;
      }
    }
  };

  while (ops.length < o.ops) {
    const kind = r.weighted(SINGLE);
    switch (kind) {
      case "deposit":
        push({
          kind,
          acct: r.pick([...DASH_ACCOUNTS, ...CLIENT_ACCOUNTS]),
          cents: dollars(1, 200_000),
          bank: r.int(o.instances),
          par: true,
        });
        break;
      case "sen": {
        const [from, to] = twoSen();
        const cents = r.chance(0.8) ? dollars(1, 240_000) : dollars(250_001, 400_000);
        push({
          kind,
          who: r.pick([...PREPARERS, ...APPROVERS]),
          from,
          to,
          cents,
          key: r.guid(),
          inst: inst(),
          par: true,
          ...(r.chance(0.1) ? { abortMs: r.range(1, 80) } : {}),
        });
        break;
      }
      case "wire":
        newDraft(preparer(), dollars(100, 120_000));
        break;
      case "edit":
        if (drafts)
          push({ kind, who: preparer(), draft: anyDraft(), cents: dollars(100, 120_000), inst: inst() });
        break;
      case "release":
        if (drafts)
          push({
            kind,
            who: approver(),
            draft: anyDraft(),
            copies: 1,
            insts: [inst()],
            ...(r.chance(0.15) ? { abortMs: r.range(1, 60) } : {}),
          });
        break;
      case "reject":
        if (drafts) push({ kind, who: approver(), draft: anyDraft(), inst: inst() });
        break;
      case "inWire":
        newWire(r.chance(0.7) ? dollars(100, 900_000) : dollars(1_000_001, 2_000_000));
        break;
      case "decide":
        if (wires)
          push({
            kind,
            who: r.chance(0.9) ? approver() : "flo",
            wire: anyWire(),
            action: r.weighted({ approve: 6, cancel: 2, return: 1 }),
            inst: inst(),
          });
        break;
      case "settle":
        push({ kind, bank: r.int(o.instances) });
        break;
      case "v2":
        v2Ops.push(ops.length);
        push({
          kind,
          from: r.pick(CLIENT_ACCOUNTS),
          to: r.pick([...DASH_SEN, ...CLIENT_ACCOUNTS]),
          cents: dollars(1, 50_000),
          key: r.guid(),
          copies: 1,
          bank: r.int(o.instances),
          par: true,
        });
        break;
      case "v2replay":
        if (v2Ops.length) push({ kind, of: r.pick(v2Ops), bank: r.int(o.instances), par: true });
        break;
      case "signIn":
        push({ kind, who: r.pick(PEOPLE), inst: inst() });
        break;
      case "settings": {
        // Mostly tightening (lowering a limit is one admin's to make); back to the default is a
        // raise when the limit was lowered before.
        const setting = r.pick([
          "senReleaseThresholdCents",
          "incomingWireDualApprovalCents",
          "releaseDualApprovalCents",
        ] as const);
        const [dflt, lo, hi] =
          setting === "senReleaseThresholdCents"
            ? [DEFAULT_SEN_THRESHOLD, 50_000, 250_000]
            : setting === "incomingWireDualApprovalCents"
              ? [DEFAULT_DUAL_APPROVAL, 200_000, 1_000_000]
              : [DEFAULT_RELEASE_DUAL, 300_000, 1_000_000];
        const cents = r.chance(0.3) ? dflt : dollars(lo, hi);
        push({ kind, who: r.pick(ADMINS), setting, cents, inst: inst() });
        break;
      }
      case "approveChanges":
        push({ kind, who: r.pick(ADMINS), inst: inst() });
        break;
      case "role":
        push({
          kind,
          who: r.pick(ADMINS),
          target: "flo",
          role: r.pick(["viewer", "preparer", "approver"] as const),
          inst: inst(),
        });
        break;
      case "disable":
        push({ kind, who: r.pick(ADMINS), target: "flo", disabled: r.chance(0.5), inst: inst() });
        break;
      case "registerHook":
        push({ kind, who: r.pick(ADMINS), acct: "A2", inst: inst() });
        break;
      case "payee":
        // A saved beneficiary made, or its account number changed (payees 0-3).
        push({
          kind,
          who: r.pick([...PREPARERS, ...APPROVERS]),
          payee: r.int(4),
          account: String(r.range(10_000_000, 99_999_999)),
          inst: inst(),
        });
        break;
      case "macro":
        macro(r.weighted(MACROS));
        break;
    }
    if (days) scheduled.step();
    if (ops.length % 25 === 24) push({ kind: "check" });
  }
  const cut = ops.slice(0, o.ops);
  // The business days not reached within the cut, at its end: a run always covers all of them.
  let left = days - cut.reduce((sum, op) => sum + (op.kind === "advance" ? op.days : 0), 0);
  while (left > 0) {
    const step = Math.min(left, 5);
    cut.push({ kind: "advance", days: step, bank: 0, i: cut.length });
    left -= step;
  }
  if (days) cut.push({ kind: "check", i: cut.length });
  return { seed: o.seed, ops: cut, hash: scheduleHash(cut) };
}

/**
 * The actors of schedules and sweeps, drawn from a stream of their own, so that the rest of a
 * seed's schedule draws what it always drew: at the start, preparers set up four series and one
 * sweep and two approvers approve them; then, among the other operations, the clock moves on 1-3
 * business days at a time (spread so that the run covers `days`), people skip, pause, resume
 * and cancel series, pause and resume the sweep, set up a new series now and then, and the
 * funding account gets a deposit.
 */
function scheduleActors(
  o: ScheduleOptions,
  push: (op: NewOp) => void,
): { start: () => void; step: () => void } {
  const r = new Prng((o.seed ^ 0x5c4ed) >>> 0);
  const inst = () => r.int(o.instances);
  const days = o.days ?? 0;
  let series = 0;
  let moved = 0;
  let steps = 0;
  const dollars = (lo: number, hi: number) => r.range(lo * 100, hi * 100);
  const approvers = ["a1", "a2"] as const;
  /** Each series' rail and accounts as drawn, so that a new payee is another account. */
  const drawn: { rail: "sen" | "wire"; from: Account; to: Account }[] = [];
  const approve = (n: number) => {
    // a1 and a2 are never reset, demoted or invited in a run: their approvals keep counting.
    for (const who of approvers) push({ kind: "seriesApprove", who, series: n, inst: inst() });
  };
  const newSeries = (from: Account, to: Account, cents: number, pattern: SeriesPattern, payee?: string) => {
    const n = series++;
    const rail = payee ? "wire" : "sen";
    drawn.push({ rail, from, to });
    push({
      kind: "series",
      who: r.pick(PREPARERS),
      series: n,
      rail,
      from,
      to,
      ...(payee ? { payee } : {}),
      cents,
      pattern,
      key: r.guid(),
      inst: inst(),
    });
    approve(n);
  };
  /** A beneficiary account number of a wire series: eight digits. */
  const beneficiary = () => String(r.range(10_000_000, 99_999_999));
  const weekly = (): SeriesPattern => ({ kind: "weekly", weekday: r.pick(WEEKDAYS) });
  // Main-loop steps expected over the run (each step adds about 1.6 operations).
  const expectedSteps = Math.max(1, Math.floor(o.ops / 1.6));
  return {
    start() {
      // Out of the kept account (below its band), into it (above), out of the funding account.
      newSeries("K1", "A1", dollars(15_000, 22_000), weekly());
      newSeries("A2", "K1", dollars(5_000, 9_000), weekly());
      newSeries("F1", "A3", dollars(3_000, 8_000), { kind: "monthly-day", day: r.range(1, 28) });
      newSeries("A3", "A1", dollars(1_000, 300_000), weekly());
      // A weekly wire from the DDA: every wire needs an approver, whatever its size.
      newSeries("A0", "A0", dollars(2_000, 30_000), weekly(), beneficiary());
      push({
        kind: "sweep",
        who: r.pick(PREPARERS),
        sweep: 0,
        account: "K1",
        funding: "F1",
        ...SWEEP_BAND,
        key: r.guid(),
        inst: inst(),
      });
      for (const who of approvers) push({ kind: "sweepApprove", who, sweep: 0, inst: inst() });
    },
    step() {
      steps++;
      // The clock keeps pace with the run: behind its share of the days, it moves on.
      if (moved < days && moved < (days * steps) / expectedSteps) {
        const d = Math.min(days - moved, r.range(1, 3));
        moved += d;
        push({ kind: "advance", days: d, bank: r.int(o.instances) });
        return;
      }
      if (!r.chance(0.12)) return;
      const s = r.int(series);
      switch (
        r.weighted({
          skip: 4,
          pause: 2,
          resume: 3,
          cancel: 1,
          sweepStatus: 2,
          fund: 1,
          newSeries: 1,
          edit: 3,
          approve: 1,
        })
      ) {
        case "skip":
          push({ kind: "skip", who: r.pick(PREPARERS), series: s, ahead: r.int(3), inst: inst() });
          return;
        case "pause":
        case "resume":
        case "cancel": {
          const action = r.pick(["pause", "pause", "resume", "resume", "cancel"] as const);
          push({ kind: "seriesStatus", who: r.pick(PREPARERS), series: s, action, inst: inst() });
          return;
        }
        case "sweepStatus":
          push({
            kind: "sweepStatus",
            who: r.pick(PREPARERS),
            sweep: 0,
            action: r.chance(0.4) ? "pause" : "resume",
            inst: inst(),
          });
          return;
        case "fund":
          // Seldom and small: the funding account runs dry now and then.
          push({ kind: "deposit", acct: "F1", cents: dollars(2_000, 15_000), bank: r.int(o.instances) });
          return;
        case "edit": {
          const change = r.pick(["amount", "amount", "payee", "rename"] as const);
          const d = drawn[s];
          const wire = d.rail === "wire";
          const to = r.pick(["K1", ...DASH_SEN].filter((a) => a !== d.from && a !== d.to) as Account[]);
          if (change === "payee" && !wire) d.to = to;
          push({
            kind: "seriesEdit",
            who: r.pick(PREPARERS),
            series: s,
            change,
            // A SEN amount above the release threshold half the time: the new version then needs an approver.
            cents: wire
              ? dollars(2_000, 30_000)
              : r.chance(0.5)
                ? DEFAULT_SEN_THRESHOLD + dollars(1_000, 50_000)
                : dollars(500, 20_000),
            to,
            payee: beneficiary(),
            inst: inst(),
          });
          // What needs approval again gets it at once, most of the time; else a later `approve`
          // does, and the occurrences between are not sent.
          if (change !== "rename" && r.chance(0.5)) approve(s);
          return;
        }
        case "approve":
          approve(s);
          return;
        case "newSeries": {
          if (r.chance(0.3)) {
            newSeries("A0", "A0", dollars(2_000, 30_000), weekly(), beneficiary());
            return;
          }
          const from = r.pick(["K1", "F1", ...DASH_SEN] as const);
          const to = r.pick(["K1", ...DASH_SEN].filter((a) => a !== from) as Account[]);
          newSeries(
            from,
            to,
            dollars(500, 20_000),
            r.chance(0.6) ? weekly() : { kind: "monthly-day", day: r.range(1, 28) },
          );
          return;
        }
      }
    },
  };
}

export function scheduleHash(ops: Op[]): string {
  return createHash("sha256").update(JSON.stringify(ops)).digest("hex").slice(0, 16);
}
