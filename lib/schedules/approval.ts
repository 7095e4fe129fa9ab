// How many approvers a series' payment needs, and which of its approvals count: the approval
// policy evaluator that judges a manual payment (lib/approvals/policy.ts), asked again at each
// occurrence's send, so a series obeys the policies in force and only votes whose voters may still
// cast them.
import "server-only";
import { policySetNow, votersNow } from "../approvals/facts.ts";
import { evaluate, type PaymentFacts, type Tally, tally } from "../approvals/policy.ts";
import type { Queryable } from "../db/client.ts";

export interface SeriesPayment {
  kind: "sen" | "wire";
  amountCents: number;
  fromAccount: string;
  preparedBy: string;
}

function factsOf(s: SeriesPayment): PaymentFacts {
  return { rail: s.kind, amountCents: s.amountCents, sourceAccount: s.fromAccount, preparerId: s.preparedBy };
}

/** Distinct eligible approvers the series' payment needs now (0: it goes on its preparer's word). */
export async function approvalsNeeded(db: Queryable, s: SeriesPayment): Promise<number> {
  return evaluate(factsOf(s), await policySetNow(db), Date.now()).approvers;
}

/** The series' approvals as their approvers stand now, against what its payment needs. */
export async function seriesTally(
  db: Queryable,
  s: SeriesPayment,
  approverIds: readonly string[],
): Promise<Tally> {
  return tally(
    factsOf(s),
    await policySetNow(db),
    await votersNow(db, approverIds, { lock: false }),
    Date.now(),
  );
}
