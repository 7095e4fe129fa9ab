// Balance-alert evaluation: one rule per account with a "below" and an "above" line. A line fires
// when the balance crosses it and re-arms only once the balance is back on the safe side, so a
// run of notifications on the wrong side raises one alert, not one each.
import type { Queryable } from "../db/client.ts";
import type { alertRules, alerts } from "../db/schema.ts";
import type { AsText, SqlRow } from "../server/sql-row.ts";

export type AlertKind = "below" | "above";

export interface RuleState {
  belowCents: number | null;
  aboveCents: number | null;
  belowArmed: boolean;
  aboveArmed: boolean;
}

export interface Crossing {
  kind: AlertKind;
  thresholdCents: number;
}

/** The next state of a rule for a new available balance, and the lines it crossed. */
export function step(rule: RuleState, availableCents: number): { next: RuleState; fired: Crossing[] } {
  const next = { ...rule };
  const fired: Crossing[] = [];
  if (rule.belowCents !== null) {
    if (rule.belowArmed && availableCents < rule.belowCents) {
      next.belowArmed = false;
      fired.push({ kind: "below", thresholdCents: rule.belowCents });
    } else if (!rule.belowArmed && availableCents >= rule.belowCents) next.belowArmed = true;
  }
  if (rule.aboveCents !== null) {
    if (rule.aboveArmed && availableCents > rule.aboveCents) {
      next.aboveArmed = false;
      fired.push({ kind: "above", thresholdCents: rule.aboveCents });
    } else if (!rule.aboveArmed && availableCents <= rule.aboveCents) next.aboveArmed = true;
  }
  return { next, fired };
}

export interface FiredAlert {
  id: number;
  kind: AlertKind;
  thresholdCents: number;
  notifyUsers: boolean;
  emails: string;
}

// bigint columns come back as text from node-postgres: read as text, converted with Number().
type RuleRow = AsText<
  Pick<
    SqlRow<typeof alertRules>,
    | "below_cents"
    | "above_cents"
    | "below_armed"
    | "above_armed"
    | "notify_users"
    | "emails"
    | "last_event_seq"
  >,
  "below_cents" | "above_cents" | "last_event_seq"
>;

const num = (v: string | number | null) => (v === null ? null : Number(v));

/**
 * Evaluates the account's rule for one stored notification, inside the transaction that stored
 * it. The rule row is locked, so instances receiving notifications of one account at once take
 * turns; a notification older than the last one evaluated changes nothing (its news is stale).
 */
export async function evaluateAlerts(
  q: Queryable,
  e: { seq: number; accountNumber: string; availableCents: number; previousCents: number },
): Promise<FiredAlert[]> {
  const [row] = await q.query<RuleRow>(
    `SELECT below_cents, above_cents, below_armed, above_armed, notify_users, emails, last_event_seq
     FROM alert_rules WHERE account_number = $1 FOR UPDATE`,
    [e.accountNumber],
  );
  if (!row || Number(row.last_event_seq) >= e.seq) return [];
  const { next, fired } = step(
    {
      belowCents: num(row.below_cents),
      aboveCents: num(row.above_cents),
      belowArmed: row.below_armed,
      aboveArmed: row.above_armed,
    },
    e.availableCents,
  );
  await q.query(
    `UPDATE alert_rules SET below_armed = $2, above_armed = $3, last_event_seq = $4
     WHERE account_number = $1`,
    [e.accountNumber, next.belowArmed, next.aboveArmed, e.seq],
  );
  const out: FiredAlert[] = [];
  for (const f of fired) {
    const [a] = await q.query<AsText<Pick<SqlRow<typeof alerts>, "id">, "id">>(
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
        id: Number(a.id),
        kind: f.kind,
        thresholdCents: f.thresholdCents,
        notifyUsers: row.notify_users,
        emails: row.emails,
      });
  }
  return out;
}
