// Balance-alert evaluation: one rule per account with a "below" and an "above" line. Each
// notification carries the balance before and after one change at the bank, so a crossing is
// judged on that notification alone: the line fires when the previous balance was on its safe
// side and the new one is not. Notifications arrive in any order and on any instance; judging
// each against the last one that happened to arrive would miss crossings (and invent others),
// while this way every crossing in the bank's sequence of balances fires exactly once: the
// notification is stored once per webhook-id and an alert once per stored notification and line.
import type { Queryable } from "../db/client.ts";
import type { alertRules, alerts } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";

export type AlertKind = "below" | "above";

export interface RuleLines {
  belowCents: number | null;
  aboveCents: number | null;
}

export interface Crossing {
  kind: AlertKind;
  thresholdCents: number;
}

/** The lines one balance change crossed from their safe side (at or above "below", at or under "above"). */
export function crossings(rule: RuleLines, previousCents: number, availableCents: number): Crossing[] {
  const fired: Crossing[] = [];
  const { belowCents: below, aboveCents: above } = rule;
  if (below !== null && previousCents >= below && availableCents < below)
    fired.push({ kind: "below", thresholdCents: below });
  if (above !== null && previousCents <= above && availableCents > above)
    fired.push({ kind: "above", thresholdCents: above });
  return fired;
}

export interface FiredAlert {
  id: number;
  kind: AlertKind;
  thresholdCents: number;
  notifyUsers: boolean;
  emails: string;
}

type RuleRow = Pick<
  SqlRow<typeof alertRules>,
  "below_cents" | "above_cents" | "notify_users" | "emails" | "last_event_seq"
>;

/**
 * Evaluates the account's rule for one stored notification, inside the transaction that stored
 * it. The armed flags only show the side of each line of the latest balance received (the rule
 * row is locked, so instances take turns updating them); they decide nothing.
 */
export async function evaluateAlerts(
  q: Queryable,
  e: { seq: number; accountNumber: string; availableCents: number; previousCents: number },
): Promise<FiredAlert[]> {
  const [row] = await q.query<RuleRow>(
    `SELECT below_cents, above_cents, notify_users, emails, last_event_seq
     FROM alert_rules WHERE account_number = $1 FOR UPDATE`,
    [e.accountNumber],
  );
  if (!row) return [];
  const rule = { belowCents: row.below_cents, aboveCents: row.above_cents };
  if (row.last_event_seq < e.seq)
    await q.query(
      `UPDATE alert_rules SET below_armed = $2, above_armed = $3, last_event_seq = $4
       WHERE account_number = $1`,
      [
        e.accountNumber,
        rule.belowCents === null || e.availableCents >= rule.belowCents,
        rule.aboveCents === null || e.availableCents <= rule.aboveCents,
        e.seq,
      ],
    );
  const out: FiredAlert[] = [];
  for (const f of crossings(rule, e.previousCents, e.availableCents)) {
    const [a] = await q.query<Pick<SqlRow<typeof alerts>, "id">>(
      `INSERT INTO alerts (event_seq, account_number, kind, threshold_cents, available_cents,
                           previous_cents, notify_users, emails)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (event_seq, kind) DO NOTHING RETURNING id`,
      [
        e.seq,
        e.accountNumber,
        f.kind,
        f.thresholdCents,
        e.availableCents,
        e.previousCents,
        row.notify_users,
        row.emails,
      ],
    );
    if (a)
      out.push({
        id: a.id,
        kind: f.kind,
        thresholdCents: f.thresholdCents,
        notifyUsers: row.notify_users,
        emails: row.emails,
      });
  }
  return out;
}
