// The balance ahead: an account's available balance projected over the next business days from
// what is already known to come: scheduled occurrences and sweeps (scheduled), drafts waiting for
// release (waiting for approval) and incoming wires waiting for a decision (not yet accepted), each
// kind kept apart so a page can show what the line rests on. Pure: the route reads, this adds up.
import { addBusinessDays, isBusinessDay, rollToBusinessDay } from "../bank-api/business-days.ts";

export const AHEAD_KINDS = ["scheduled", "sweep", "draft", "incoming_wire"] as const;
export type AheadKind = (typeof AHEAD_KINDS)[number];

/** How sure a payment ahead is, in words. */
export const AHEAD_LIKELIHOODS = ["scheduled", "waiting for approval", "not yet accepted"] as const;
export type AheadLikelihood = (typeof AHEAD_LIKELIHOODS)[number];

/** How sure each kind is, in the words the route gives and the page shows beside each amount. */
export const AHEAD_LIKELIHOOD: Record<AheadKind, AheadLikelihood> = {
  scheduled: "scheduled",
  sweep: "scheduled",
  draft: "waiting for approval",
  incoming_wire: "not yet accepted",
};

/** Each kind's word as a column or a day's breakdown names it. */
export const AHEAD_KIND_WORDS: Record<AheadKind, string> = {
  scheduled: "Scheduled",
  sweep: "Sweeps",
  draft: "Waiting for approval",
  incoming_wire: "Not yet accepted",
};

export interface AheadFlow {
  /** Unique within its day: the payment it stands for. */
  key: string;
  kind: AheadKind;
  /** How sure it is (`AHEAD_LIKELIHOOD` of its kind): what a reader of the route shows beside it. */
  likelihood: AheadLikelihood;
  /** Signed: money in is positive. */
  amountCents: number;
  label: string;
  /** A sweep's move: which sweep, and its name (the label says the direction too). */
  sweepId?: string;
  sweepName?: string;
}

export interface AheadDay {
  day: string;
  /** Each kind's sum that day, signed. */
  byKind: Record<AheadKind, number>;
  flows: AheadFlow[];
  /** The projected available balance at the day's end. */
  projectedCents: number;
}

export interface AheadInput {
  account: string;
  /** The bank's business date. */
  today: string;
  availableCents: number;
  businessDays: number;
  occurrences: readonly {
    seriesId: string;
    nominalDay: string;
    day: string;
    name: string;
    kind: "sen" | "wire";
    amountCents: number;
    fromAccount: string;
    counterparty: string;
    status: string;
    /** A series not yet approved sends nothing: its occurrences wait for approval like drafts. */
    approved: boolean;
  }[];
  drafts: readonly {
    id: string;
    kind: "sen" | "wire";
    amountCents: number;
    fromAccount: string;
    counterparty: string;
  }[];
  incomingWires: readonly {
    paymentId: string;
    accountNumber: string;
    amountCents: number;
    originator: string;
  }[];
  sweeps: readonly {
    id: string;
    name: string;
    account: string;
    fundingAccount: string;
    lowCents: number;
    highCents: number;
    approved: boolean;
    status: string;
  }[];
  /**
   * The moves of sweeps this account funds, as the kept account's own projection has them (its
   * sweep flows, `sweepMoves` of its days): what comes in there goes out here, the same day.
   */
  fundedMoves?: readonly SweepMoveAhead[];
}

/** One projected sweep move, from the kept account's side: positive when the kept account is topped up. */
export interface SweepMoveAhead {
  day: string;
  sweepId: string;
  name: string;
  account: string;
  amountCents: number;
}

/** The sweep moves of a kept account's projection, for its funding accounts' own projections. */
export function sweepMoves(account: string, days: readonly AheadDay[]): SweepMoveAhead[] {
  return days.flatMap((d) =>
    d.flows
      .filter((f) => f.kind === "sweep" && f.sweepId)
      .map((f) => ({
        day: d.day,
        sweepId: f.sweepId as string,
        name: f.sweepName ?? f.label,
        account,
        amountCents: f.amountCents,
      })),
  );
}

/** The first day the projection falls below zero or below the account's alert line, and why. */
export interface AheadShortfall {
  day: string;
  projectedCents: number;
  /** "zero" when the day's end is below zero, else "alert" (below the account's low alert line). */
  line: "zero" | "alert";
  lineCents: number;
  /** The money going out from the first day to that day, the largest first: what brings it there. */
  causes: AheadFlow[];
}

/** How many of the payments behind a shortfall are named; the rest are counted. */
export const SHORTFALL_CAUSES = 5;

/**
 * The first day whose projected end falls below zero, or below `alertBelowCents` (the account's
 * low alert line) when one is set, with the payments out that lead there. Null when no day does.
 */
export function firstShortfall(
  days: readonly AheadDay[],
  alertBelowCents: number | null,
): (AheadShortfall & { moreCauses: number }) | null {
  const at = days.findIndex(
    (d) => d.projectedCents < 0 || (alertBelowCents !== null && d.projectedCents < alertBelowCents),
  );
  if (at < 0) return null;
  const day = days[at];
  const zero = day.projectedCents < 0;
  const out = days
    .slice(0, at + 1)
    .flatMap((d) => d.flows)
    .filter((f) => f.amountCents < 0)
    .sort((a, b) => a.amountCents - b.amountCents || a.key.localeCompare(b.key));
  return {
    day: day.day,
    projectedCents: day.projectedCents,
    line: zero ? "zero" : "alert",
    lineCents: zero ? 0 : (alertBelowCents as number),
    causes: out.slice(0, SHORTFALL_CAUSES),
    moreCauses: Math.max(0, out.length - SHORTFALL_CAUSES),
  };
}

/** A payment ahead, its likelihood taken from its kind. */
const flow = (f: Omit<AheadFlow, "likelihood">): AheadFlow => ({
  ...f,
  likelihood: AHEAD_LIKELIHOOD[f.kind],
});

const none = (): Record<AheadKind, number> => ({ scheduled: 0, sweep: 0, draft: 0, incoming_wire: 0 });

/**
 * Day by day from today: what waits for a person lands today (it goes as soon as it is decided);
 * each scheduled occurrence still due lands on its business day; then each approved, active sweep
 * that keeps this account brings the day's end back into its band (its funding account taken as
 * able to cover it; what is moved out is what lies above the band).
 */
export function projectBalanceAhead(i: AheadInput): AheadDay[] {
  const first = rollToBusinessDay(i.today, "following");
  const days = Array.from({ length: i.businessDays }, (_, n) => addBusinessDays(first, n));
  const byDay = new Map(days.map((d) => [d, [] as AheadFlow[]]));
  for (const d of i.drafts)
    if (d.fromAccount === i.account)
      byDay.get(first)?.push(
        flow({
          key: `draft:${d.id}`,
          kind: "draft",
          amountCents: -d.amountCents,
          label: `${d.kind === "wire" ? "Wire" : "SEN transfer"} to ${d.counterparty}`,
        }),
      );
  for (const w of i.incomingWires)
    if (w.accountNumber === i.account)
      byDay.get(first)?.push(
        flow({
          key: `wire:${w.paymentId}`,
          kind: "incoming_wire",
          amountCents: w.amountCents,
          label: `Wire from ${w.originator}`,
        }),
      );
  for (const o of i.occurrences) {
    if (o.status !== "due" || !isBusinessDay(o.day)) continue;
    const list = byDay.get(o.day);
    if (!list) continue;
    const key = `schedule:${o.seriesId}/${o.nominalDay}`;
    // Its kind says how sure it is: a series not yet approved waits for approval like a draft.
    const kind: AheadKind = o.approved ? "scheduled" : "draft";
    if (o.fromAccount === i.account)
      list.push(flow({ key, kind, amountCents: -o.amountCents, label: o.name }));
    else if (o.kind === "sen" && o.counterparty === i.account)
      list.push(flow({ key, kind, amountCents: o.amountCents, label: o.name }));
  }
  const sweeps = i.sweeps.filter((s) => s.account === i.account && s.status === "active" && s.approved);
  let balance = i.availableCents;
  return days.map((day) => {
    const flows = byDay.get(day) ?? [];
    for (const f of flows) balance += f.amountCents;
    for (const s of sweeps) {
      const move =
        balance < s.lowCents ? s.lowCents - balance : balance > s.highCents ? s.highCents - balance : 0;
      if (!move) continue;
      flows.push(
        flow({
          key: `sweep:${s.id}`,
          kind: "sweep",
          amountCents: move,
          label: `${s.name} (${move > 0 ? "from" : "to"} ${s.fundingAccount})`,
          sweepId: s.id,
          sweepName: s.name,
        }),
      );
      balance += move;
    }
    // A sweep this account funds: the kept account's move, the other way round.
    for (const m of i.fundedMoves ?? []) {
      if (m.day !== day) continue;
      flows.push(
        flow({
          key: `sweep:${m.sweepId}`,
          kind: "sweep",
          amountCents: -m.amountCents,
          label: `${m.name} (${m.amountCents > 0 ? "to" : "from"} ${m.account})`,
          sweepId: m.sweepId,
          sweepName: m.name,
        }),
      );
      balance -= m.amountCents;
    }
    const byKind = none();
    for (const f of flows) byKind[f.kind] += f.amountCents;
    return { day, byKind, flows, projectedCents: balance };
  });
}
