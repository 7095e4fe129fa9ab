// How many approvers a series' payment needs, and which of its approvals count: the approval
// policy evaluator that judges a manual payment (lib/approvals/policy.ts), asked again at each
// occurrence's send with the facts a manual payment gives it (its payee's history, the day's SEN
// totals), so a series obeys the policies in force and only votes whose voters may still cast them.
import "server-only";
import { payeeFacts, policySetNow, senSentToday, votersNow } from "../approvals/facts.ts";
import { evaluate, type PaymentFacts, type Tally, tally } from "../approvals/policy.ts";
import { config } from "../config.ts";
import type { Queryable } from "../db/client.ts";

export interface SeriesPayment {
  kind: "sen" | "wire";
  amountCents: number;
  fromAccount: string;
  preparedBy: string;
  /** The saved payee a wire was filled from, if any. */
  beneficiaryId?: string | null;
}

async function factsOf(db: Queryable, s: SeriesPayment): Promise<PaymentFacts> {
  const today =
    s.kind === "sen"
      ? await senSentToday(db, {
          preparerId: s.preparedBy,
          account: s.fromAccount,
          timeZone: config().timeZone,
        })
      : null;
  return {
    rail: s.kind,
    amountCents: s.amountCents,
    sourceAccount: s.fromAccount,
    preparerId: s.preparedBy,
    payee: await payeeFacts(db, s.beneficiaryId ?? null),
    ...(today
      ? { todayByPreparerCents: today.byPreparerCents, todayByAccountCents: today.byAccountCents }
      : {}),
  };
}

/** Distinct eligible approvers the series' payment needs now (0: it goes on its preparer's word). */
export async function approvalsNeeded(db: Queryable, s: SeriesPayment): Promise<number> {
  return evaluate(await factsOf(db, s), await policySetNow(db), Date.now()).approvers;
}

/** The series' approvals as their approvers stand now, against what its payment needs. */
export async function seriesTally(
  db: Queryable,
  s: SeriesPayment,
  approverIds: readonly string[],
): Promise<Tally> {
  return tally(
    await factsOf(db, s),
    await policySetNow(db),
    await votersNow(db, approverIds, { lock: false }),
    Date.now(),
    config().timeZone,
  );
}

/** Why a payment to this saved payee cannot go now (a change to it waits for approval), or null. */
export async function payeeHold(
  db: Queryable,
  beneficiaryId: string | null | undefined,
): Promise<string | null> {
  if (!beneficiaryId) return null;
  const rows = await db.query<{ label: string; changed_by_email: string }>(
    `SELECT label, changed_by_email FROM beneficiary_changes WHERE beneficiary_id = $1 AND status = 'pending' LIMIT 1`,
    [beneficiaryId],
  );
  return rows[0]
    ? `a change to the payee “${rows[0].label}” by ${rows[0].changed_by_email} waits for approval`
    : null;
}
