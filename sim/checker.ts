// The invariants that need the product's stored state: the bank's ledger, payments, backup log
// and outbox (read straight from its database, never through its API), the dashboard's drafts,
// decisions, live events, alerts and audit log, and the history of what clients were told.
// `during` runs at every `check` of the schedule; `atEnd` once the system is quiet.
import { isBusinessDay } from "../lib/bank-api/business-days.ts";
import { addDays } from "../lib/bank-api/dates.ts";
import { ok } from "./history.ts";
import { outOfBand, type SeriesModel, termsKey } from "./model.ts";
import { ALERT_ACCOUNT, ALERT_LINES, WEEKDAYS } from "./schedule.ts";
import type { World } from "./world.ts";

type Row = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);

/**
 * The lines a change of balance crosses, in the model's own words (the product's code is what is
 * judged, so it is not used here): from the safe side of a line to the other side.
 */
function crossings(
  lines: { belowCents: number; aboveCents: number },
  previousCents: number,
  availableCents: number,
): { kind: "below" | "above" }[] {
  const out: { kind: "below" | "above" }[] = [];
  if (previousCents >= lines.belowCents && availableCents < lines.belowCents) out.push({ kind: "below" });
  if (previousCents <= lines.aboveCents && availableCents > lines.aboveCents) out.push({ kind: "above" });
  return out;
}

/**
 * The occurrences a series' rule names from its first day, each with the business day it is paid
 * on (rolled forward over weekends and holidays by the bank's calendar), paid on or before
 * `through`. The model's own reading of the rule: the product's recurrence code is what is judged.
 */
function occurrencesOf(m: SeriesModel, through: string): { nominal: string; day: string }[] {
  const roll = (d: string) => {
    let x = d;
    while (!isBusinessDay(x)) x = addDays(x, 1);
    return x;
  };
  const nominals: string[] = [];
  if (m.pattern.kind === "weekly") {
    const want = WEEKDAYS.indexOf(m.pattern.weekday) + 1;
    let d = m.startsOn;
    while (new Date(`${d}T00:00:00Z`).getUTCDay() !== want) d = addDays(d, 1);
    for (; d <= through; d = addDays(d, 7)) nominals.push(d);
  } else {
    const [y0, m0] = m.startsOn.split("-").map(Number);
    for (let k = 0; ; k++) {
      const y = y0 + Math.floor((m0 - 1 + k) / 12);
      const mm = ((m0 - 1 + k) % 12) + 1;
      const d = `${y}-${String(mm).padStart(2, "0")}-${String(m.pattern.day).padStart(2, "0")}`;
      if (d > through) break;
      if (d >= m.startsOn) nominals.push(d);
    }
  }
  return nominals.map((nominal) => ({ nominal, day: roll(nominal) })).filter((o) => o.day <= through);
}

/**
 * The series' status on a business day by the model: the status after every change made before
 * that day, or `unsure` on the day it was set up or changed (the day's run may have come before or
 * after the change).
 */
function statusOn(m: SeriesModel, day: string): string {
  if (day === m.startsOn) return "unsure";
  let status = m.changes[0].status;
  for (const c of m.changes.slice(1)) {
    if (c.day === day) return "unsure";
    if (c.day < day) status = c.status;
  }
  return status;
}

/** Wire statuses and the moves between them the bank may make. */
const NEXT: Record<string, string[]> = {
  "Pre-Approval": ["In-Progress", "Canceled", "Complete"],
  "In-Progress": ["Complete"],
  Complete: [],
  Canceled: [],
};

export class Checker {
  private readonly statuses = new Map<string, string>();
  /** Each invariant reported once per kind of finding, so a long run's report stays readable. */
  private readonly seen = new Set<string>();

  constructor(private readonly w: World) {}

  private report(invariant: string, op: number, key: string, message: string, cause?: number) {
    const k = `${invariant}:${key}`;
    if (this.seen.has(k)) return;
    this.seen.add(k);
    this.w.violation(invariant, op, message, cause);
  }

  /** The first operation that sent a request to `path`. */
  private firstOp(method: string, path: string): number | undefined {
    return this.w.history.calls.find((c) => c.method === method && c.path === path)?.op;
  }

  async during(op: number): Promise<void> {
    if (!this.w.cluster.readable) return;
    await this.ledger(op, false);
    await this.transitions(op);
    await this.paidOnce(op);
    await this.twoApprovers(op);
    await this.liveHooks(op);
    await this.ownSessions(op);
    await this.schedules(op, false);
    await this.sweepMoves(op, false);
  }

  async atEnd(op: number): Promise<void> {
    if (!this.w.cluster.readable) return;
    await this.ledger(op, true);
    await this.transitions(op);
    await this.paidOnce(op);
    await this.secondPerson(op);
    await this.twoApprovers(op);
    await this.backupLog(op);
    await this.liveHooks(op);
    await this.sink(op);
    await this.alerts(op);
    await this.audit();
    await this.ownSessions(op);
    await this.schedules(op, true);
    await this.sweepMoves(op, true);
    this.sweepBands();
  }

  // Schedules and sweeps ----------------------------------------------------------------------

  /** SEN debits at the bank under each of these Idempotency-Keys. */
  /**
   * What the bank paid under each occurrence key: SEN debits, and outgoing wires not cancelled
   * (sent, or taken into the backup log), each with its amount and who it paid.
   */
  private async paymentsByKey(
    keys: string[],
  ): Promise<Map<string, { cents: number; payee: string; what: string }[]>> {
    const out = new Map<string, { cents: number; payee: string; what: string }[]>();
    if (!keys.length) return out;
    const rows = await this.w.cluster.bankQuery<{
      key: string;
      cents: string;
      payee: string | null;
      what: string;
    }>(
      `SELECT lower(idempotency_key) AS key, amount_cents AS cents, counterparty_account AS payee, 'SEN debit ' || id AS what
       FROM ledger_entries WHERE dr_cr = 'D' AND tran_code IN ('9084', '9028') AND lower(idempotency_key) = ANY($1)
       UNION ALL
       SELECT lower(idempotency_key), amount_cents, details->>'beneficiary_id', 'wire ' || id || ' ' || status
       FROM payments WHERE direction = 'Outgoing' AND status <> 'Canceled' AND lower(idempotency_key) = ANY($1)`,
      [keys],
    );
    for (const r of rows)
      out.set(r.key, [...(out.get(r.key) ?? []), { cents: n(r.cents), payee: r.payee ?? "", what: r.what }]);
    return out;
  }

  private async debitsByKey(keys: string[]): Promise<Map<string, number>> {
    if (!keys.length) return new Map();
    const rows = await this.w.cluster.bankQuery<{ key: string; k: string }>(
      `SELECT lower(idempotency_key) AS key, count(*) AS k FROM ledger_entries
       WHERE dr_cr = 'D' AND tran_code IN ('9084', '9028') AND lower(idempotency_key) = ANY($1) GROUP BY 1`,
      [keys],
    );
    return new Map(rows.map((r) => [r.key, n(r.k)]));
  }

  /**
   * Occurrences of series (`schedule.*`): each is paid at most once, a skipped one never, and (at
   * the end, the runners done with the bank's business date) every occurrence of an active series
   * whose day has come is paid exactly once or recorded as not sent with a reason; none of a
   * paused or cancelled series is paid.
   */
  private async schedules(op: number, end: boolean) {
    const rows = await this.w.cluster.dashQuery<{
      series_id: string;
      nominal_day: string;
      day: string;
      key: string;
      status: string;
      reason: string | null;
    }>("SELECT series_id, nominal_day, day, key::text AS key, status, reason FROM series_occurrences");
    if (!rows.length && !this.w.series.size) return;
    const payments = await this.paymentsByKey(rows.map((r) => r.key.toLowerCase()));
    const times = (r: { key: string }) => payments.get(r.key.toLowerCase())?.length ?? 0;
    const byId = new Map([...this.w.series.values()].map((m) => [m.id, m]));
    // Whatever a series paid, it paid terms (amount and payee) that the product had called approved:
    // a payment under an edited series before the edit was approved again has terms never approved.
    for (const r of rows) {
      const m = byId.get(r.series_id);
      if (!m) continue;
      for (const p of payments.get(r.key.toLowerCase()) ?? [])
        if (!m.approvedTerms.has(termsKey(p.cents, p.payee)))
          this.report(
            "schedule.paid-as-approved",
            op,
            `terms-${r.key}-${p.what}`,
            `occurrence ${r.nominal_day} of ${m.rail} series ${m.id} paid $${(p.cents / 100).toFixed(2)} to ${p.payee} (${p.what}), terms no answer called approved (approved: ${[...m.approvedTerms].join("; ") || "none"})`,
          );
    }
    const rowOf = new Map(rows.map((r) => [`${r.series_id}/${r.nominal_day}`, r]));
    for (const r of rows) {
      const what = `occurrence ${r.nominal_day} (paid on ${r.day}) of series ${r.series_id}`;
      if (times(r) > 1)
        this.report(
          "schedule.paid-once",
          op,
          `twice-${r.key}`,
          `${what} was paid ${times(r)} times at the bank (key ${r.key}, ${r.status})`,
        );
      const skipped = byId.get(r.series_id)?.skipped.has(r.nominal_day);
      if ((r.status === "skipped" || skipped) && times(r) > 0)
        this.report(
          "schedule.skipped-unpaid",
          op,
          `skip-${r.key}`,
          `${what}, skipped${skipped ? " by a person" : ` (${r.reason})`}, was paid ${times(r)} time(s); its row says ${r.status}`,
        );
      if (r.status === "failed" && times(r) > 0)
        this.report(
          "schedule.paid-once",
          op,
          `failed-${r.key}`,
          `${what} is recorded as not sent (${r.reason}) but the bank paid it ${times(r)} time(s)`,
        );
      if (end && (r.status === "sent" || r.status === "queued") && times(r) !== 1)
        this.report(
          "schedule.paid-once",
          op,
          `sent-${r.key}`,
          `${what} is recorded as sent but the bank paid it ${times(r)} times`,
        );
    }
    if (!end) return;
    const through = this.w.bankDate;
    for (const m of this.w.series.values()) {
      const expected = occurrencesOf(m, through);
      const named = new Set(expected.map((o) => o.nominal));
      for (const r of rows)
        if (r.series_id === m.id && times(r) > 0 && !named.has(r.nominal_day))
          this.report(
            "schedule.paid-once",
            op,
            `unnamed-${r.key}`,
            `series ${m.id} paid an occurrence on ${r.nominal_day}, a day its rule does not name`,
          );
      for (const o of expected) {
        const r = rowOf.get(`${m.id}/${o.nominal}`);
        const status = statusOn(m, o.day);
        const what = `occurrence ${o.nominal} (paid on ${o.day}) of series ${m.id} ($${(m.cents / 100).toFixed(2)} ${m.from} → ${m.to})`;
        if (m.skipped.has(o.nominal)) {
          if (r?.status !== "skipped")
            this.report(
              "schedule.skipped-unpaid",
              op,
              `skip-row-${m.id}-${o.nominal}`,
              `${what} was skipped by a person but its row says ${r?.status ?? "nothing"}`,
            );
          continue;
        }
        if (status === "unsure") continue;
        if (status !== "active") {
          if (r && times(r) > 0)
            this.report(
              "schedule.skipped-unpaid",
              op,
              `inactive-${m.id}-${o.nominal}`,
              `${what} was paid ${times(r)} time(s) although the series was ${status} on that day`,
            );
          continue;
        }
        if (!r)
          this.report(
            "schedule.none-missed",
            op,
            `missing-${m.id}-${o.nominal}`,
            `${what}: the series was active but the occurrence was never written down (through ${through})`,
          );
        else if (r.status === "failed" || r.status === "skipped") {
          if (!r.reason)
            this.report(
              "schedule.none-missed",
              op,
              `reason-${m.id}-${o.nominal}`,
              `${what} was not sent (${r.status}) and no reason is recorded`,
            );
        } else if ((r.status !== "sent" && !(m.rail === "wire" && r.status === "queued")) || times(r) !== 1)
          this.report(
            "schedule.none-missed",
            op,
            `unpaid-${m.id}-${o.nominal}`,
            `${what} is ${r.status}, paid ${times(r)} time(s) at the bank, at the end of the run (through ${through})`,
          );
      }
    }
  }

  /** Each sweep move is made at most once at the bank, and one recorded as sent exactly once (`sweep.moved-once`). */
  private async sweepMoves(op: number, end: boolean) {
    const rows = await this.w.cluster.dashQuery<{ key: string; status: string; day: string; slot: string }>(
      "SELECT key::text AS key, status, day, slot FROM sweep_moves",
    );
    if (!rows.length) return;
    const paid = await this.debitsByKey(rows.map((r) => r.key.toLowerCase()));
    for (const r of rows) {
      const k = paid.get(r.key.toLowerCase()) ?? 0;
      const moves = r.status === "sending" || r.status === "sent";
      if (k > 1 || (!moves && k > 0) || (end && r.status === "sent" && k !== 1))
        this.report(
          "sweep.moved-once",
          op,
          r.key,
          `the sweep move of ${r.day} (${r.slot}, ${r.status}) was made ${k} times at the bank`,
        );
    }
    // One dip, one move: two moves of a sweep planned from the same two balances (the day's run
    // and a crossing's slot, or two crossings, reading them at once) move the same money twice. A
    // move the bank refused changed nothing: a later plan from the same balances may stand.
    const twice = await this.w.cluster.dashQuery<{
      sweep_id: string;
      day: string;
      slots: string[];
      said: string[];
    }>(
      `SELECT sweep_id::text AS sweep_id, day, array_agg(slot ORDER BY created_at) AS slots,
         array_agg(slot || ' ' || status ORDER BY created_at) AS said
       FROM sweep_moves WHERE status IN ('sending', 'sent')
       GROUP BY sweep_id, day, direction, available_cents, funding_available_cents HAVING count(*) > 1`,
    );
    for (const t of twice)
      this.report(
        "sweep.once-per-dip",
        op,
        `${t.sweep_id}-${t.day}-${t.slots.join(",")}`,
        `sweep ${t.sweep_id} planned ${t.slots.length} moves on ${t.day} from the same balances: ${t.said.join("; ")}`,
      );
  }

  /**
   * Once each business day's runs are over, each approved active sweep's account is inside its
   * band, or below it only while the funding account could not have covered it (`sweep.in-band`).
   */
  private sweepBands() {
    for (const l of this.w.sweepLooks)
      if (outOfBand(l))
        this.report(
          "sweep.in-band",
          l.op,
          `${l.sweep.id}-${l.day}`,
          `on ${l.day} sweep ${l.sweep.id} left ${l.sweep.account} at $${(l.keptCents / 100).toFixed(2)}, outside its band $${(l.sweep.lowCents / 100).toFixed(2)}–$${(l.sweep.highCents / 100).toFixed(2)}, with $${(l.fundingCents / 100).toFixed(2)} available in ${l.sweep.funding} (the day's run: ${l.ran ?? "none"}; ${l.waited} s after the clock moved)`,
        );
  }

  // Sessions ---------------------------------------------------------------------------------

  /**
   * No session of a person exists that they did not sign in for themselves: the dashboard's
   * sessions of each user are at most the sign-ins that person attempted (a rogue admin's sign-in
   * as them, with a password or link that reached the admin, is one more).
   */
  private async ownSessions(op: number) {
    const rows = await this.w.cluster.dashQuery<{ user_id: string; k: string }>(
      "SELECT user_id, count(*) AS k FROM sessions GROUP BY user_id",
    );
    const byId = new Map(Object.entries(this.w.people).map(([name, p]) => [p.id, { name, p }]));
    for (const r of rows) {
      const x = byId.get(r.user_id);
      if (x && n(r.k) > x.p.ownSignIns)
        this.report(
          "session.own-person",
          op,
          `db-${x.name}`,
          `${x.name} has ${r.k} sessions in the dashboard's database but signed in ${x.p.ownSignIns} time(s) themselves`,
        );
    }
  }

  // Money ----------------------------------------------------------------------------------

  private async ledger(op: number, end: boolean) {
    await this.w.cluster.bankSnapshot((q) => this.ledgerIn(q, op, end));
  }

  private async ledgerIn(
    bankQuery: <R = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<R[]>,
    op: number,
    end: boolean,
  ) {
    const c = { bankQuery };
    const accounts = await c.bankQuery(
      `SELECT a.number, a.current_cents, a.available_cents, a.holds_cents,
         COALESCE((SELECT sum(CASE e.dr_cr WHEN 'C' THEN e.amount_cents ELSE -e.amount_cents END)
                   FROM ledger_entries e WHERE e.account_number = a.number), 0) AS ledger,
         COALESCE((SELECT sum(p.amount_cents) FROM payments p WHERE p.account_number = a.number
                   AND p.direction = 'Outgoing' AND p.status = 'In-Progress' AND p.return_of IS NULL), 0) AS held
       FROM accounts a`,
    );
    let total = 0;
    for (const a of accounts) {
      total += n(a.current_cents);
      if (n(a.current_cents) !== n(a.ledger))
        this.report(
          "money.conserved",
          op,
          `acct-${a.number}`,
          `account ${a.number}: balance ${a.current_cents} but its ledger entries sum to ${a.ledger}`,
        );
      if (n(a.available_cents) < 0)
        this.report(
          "money.non-negative",
          op,
          `acct-${a.number}`,
          `account ${a.number}: available balance ${a.available_cents} below zero`,
        );
      if (n(a.available_cents) !== n(a.current_cents) - n(a.holds_cents))
        this.report(
          "money.conserved",
          op,
          `avail-${a.number}`,
          `account ${a.number}: available ${a.available_cents} ≠ current ${a.current_cents} − holds ${a.holds_cents}`,
        );
      if (n(a.holds_cents) !== n(a.held))
        this.report(
          "money.conserved",
          op,
          `holds-${a.number}`,
          `account ${a.number}: holds ${a.holds_cents} ≠ in-progress outgoing wires ${a.held}`,
        );
    }
    const pairs = await c.bankQuery(
      `SELECT transfer_id, count(*) AS k, sum(CASE dr_cr WHEN 'C' THEN amount_cents ELSE -amount_cents END) AS net
       FROM ledger_entries WHERE transfer_id IS NOT NULL GROUP BY transfer_id
       HAVING count(*) <> 2 OR sum(CASE dr_cr WHEN 'C' THEN amount_cents ELSE -amount_cents END) <> 0`,
    );
    for (const p of pairs)
      this.report(
        "money.two-entries",
        op,
        `tx-${p.transfer_id}`,
        `SEN transfer ${p.transfer_id} has ${p.k} ledger entries (net ${p.net}), not one debit and one credit`,
      );
    const [sums] = await c.bankQuery(
      `SELECT
         COALESCE(sum(amount_cents) FILTER (WHERE tran_code = '1100' AND dr_cr = 'C'), 0) AS deposits,
         COALESCE(sum(amount_cents) FILTER (WHERE tran_code = '9096' AND dr_cr = 'C'), 0) AS wires_in,
         COALESCE(sum(amount_cents) FILTER (WHERE tran_code = '9095' AND dr_cr = 'D'), 0) AS wires_out
       FROM ledger_entries`,
    );
    const [settled] = await c.bankQuery(
      `SELECT COALESCE(sum(amount_cents) FILTER (WHERE direction = 'Incoming'), 0) AS inc,
              COALESCE(sum(amount_cents) FILTER (WHERE direction = 'Outgoing' AND return_of IS NULL), 0) AS out
       FROM payments WHERE status = 'Complete'`,
    );
    const expected = n(sums.deposits) + n(settled.inc) - n(settled.out);
    if (total !== expected)
      this.report(
        "money.conserved",
        op,
        "total",
        `all balances ${total} ≠ deposits ${sums.deposits} + settled incoming wires ${settled.inc} − settled outgoing wires ${settled.out} (= ${expected})`,
      );
    if (n(sums.wires_in) !== n(settled.inc) || n(sums.wires_out) !== n(settled.out))
      this.report(
        "money.conserved",
        op,
        "wires",
        `wire entries (in ${sums.wires_in}, out ${sums.wires_out}) ≠ settled wires (in ${settled.inc}, out ${settled.out})`,
      );
    const dep = n(sums.deposits);
    if (end && (dep < this.w.depositsAck || dep > this.w.depositsAck + this.w.depositsMaybe))
      this.report(
        "money.conserved",
        op,
        "deposits",
        `the ledger holds ${dep} cents of deposits; the bank confirmed ${this.w.depositsAck} (${this.w.depositsMaybe} more unanswered)`,
      );
    const keys = await c.bankQuery<{ key: string; k: string }>(
      `SELECT idempotency_key AS key, count(*) AS k FROM ledger_entries
       WHERE dr_cr = 'D' AND tran_code IN ('9084', '9028') AND idempotency_key <> ''
       GROUP BY 1 HAVING count(*) > 1`,
    );
    for (const r of keys)
      this.report(
        "idempotency.once",
        op,
        r.key,
        `the transfer under Idempotency-Key ${r.key} moved money ${r.k} times`,
      );
    const doubled = await c.bankQuery(
      `SELECT payment_id, count(*) AS k FROM ledger_entries WHERE payment_id <> '' GROUP BY payment_id HAVING count(*) > 1`,
    );
    for (const d of doubled)
      this.report(
        "backup.applied-once",
        op,
        `pay-${d.payment_id}`,
        `wire ${d.payment_id} was posted ${d.k} times`,
      );
  }

  // Payments ---------------------------------------------------------------------------------

  private async transitions(op: number) {
    const rows = await this.w.cluster.bankQuery<{ id: string; status: string }>(
      "SELECT id, status FROM payments",
    );
    for (const r of rows) {
      const before = this.statuses.get(r.id);
      if (before && before !== r.status && !NEXT[before]?.includes(r.status))
        this.report("wire.transitions", op, r.id, `wire ${r.id} moved from ${before} to ${r.status}`);
      this.statuses.set(r.id, r.status);
    }
  }

  /** Every draft is paid at most once: one payment carries its mark, one SEN debit its key. */
  private async paidOnce(op: number) {
    const c = this.w.cluster;
    const wires = await c.bankQuery<{ tag: string; k: string; ids: string }>(
      `SELECT details->>'originator_to_beneficiary_info_line' AS tag, count(*) AS k, string_agg(id || ' ' || status, ', ') AS ids
       FROM payments WHERE direction = 'Outgoing' AND details->>'originator_to_beneficiary_info_line' LIKE 'S%'
         AND status <> 'Canceled'
       GROUP BY 1 HAVING count(*) > 1`,
    );
    const byTag = new Map([...this.w.drafts.values()].map((d) => [this.w.tagOf(d.id), d]));
    for (const r of wires) {
      const d = byTag.get(r.tag);
      if (!d) continue;
      this.report(
        "draft.paid-once",
        op,
        r.tag,
        `draft ${d.id} ($${(d.cents / 100).toFixed(2)}) was paid ${r.k} times at the bank: ${r.ids}`,
        this.firstOp("POST", `/api/drafts/${d.id}/release`),
      );
    }
    const ids = [...this.w.drafts.values()].filter((d) => d.kind === "sen").map((d) => d.id);
    if (ids.length) {
      const sen = await c.bankQuery<{ key: string; k: string }>(
        `SELECT idempotency_key AS key, count(*) AS k FROM ledger_entries
         WHERE dr_cr = 'D' AND tran_code IN ('9084', '9028') AND idempotency_key = ANY($1) GROUP BY 1 HAVING count(*) > 1`,
        [ids],
      );
      for (const r of sen)
        this.report(
          "draft.paid-once",
          op,
          r.key,
          `SEN draft ${r.key} moved money ${r.k} times`,
          this.firstOp("POST", `/api/drafts/${r.key}/release`),
        );
    }
  }

  /** Nothing above the release threshold leaves without a second person (the release side). */
  private async secondPerson(op: number) {
    const drafts = await this.w.cluster.dashQuery<{
      id: string;
      prepared_by: string;
      decided_by: string | null;
      status: string;
    }>(
      "SELECT id, prepared_by, decided_by, status FROM payment_drafts WHERE status IN ('released', 'queued', 'releasing')",
    );
    for (const d of drafts)
      if (d.decided_by && d.decided_by === d.prepared_by)
        this.report(
          "release.second-person",
          op,
          d.id,
          `draft ${d.id} was released by the person who prepared it`,
        );
  }

  /**
   * No incoming wire above the limit is decided by fewer than two people whose sessions could act:
   * a vote from a session that had to be refused does not count as a person.
   */
  private async twoApprovers(op: number) {
    const byPayment = new Map<string, { votes: Set<string>; sent: boolean; cents: number }>();
    const wires = new Map([...this.w.wires.values()].map((x) => [x.paymentId, x]));
    for (const call of this.w.history.calls) {
      const m = /^\/api\/incoming-wires\/([A-Za-z0-9]+)$/.exec(call.path);
      if (!m || call.method !== "POST" || !ok(call)) continue;
      const wire = wires.get(m[1]);
      if (!wire) continue;
      const rec = byPayment.get(m[1]) ?? { votes: new Set<string>(), sent: false, cents: wire.cents };
      byPayment.set(m[1], rec);
      if (call.session === "normal") rec.votes.add(call.actor);
      const outcome = (call.answer as { outcome?: string } | undefined)?.outcome;
      if (outcome === "sent" || outcome === "queued") rec.sent = true;
    }
    for (const [id, rec] of byPayment) {
      const limit = this.w.decidedUnder.get(id) ?? this.w.dualApproval;
      if (rec.sent && rec.cents > limit && rec.votes.size < 2)
        this.report(
          "incoming.two-approvers",
          op,
          id,
          `incoming wire ${id} of $${(rec.cents / 100).toFixed(2)} (limit $${(limit / 100).toFixed(2)}) was decided with ${rec.votes.size} approver(s) who could act: ${[...rec.votes].join(", ") || "none"}`,
        );
    }
  }

  private async backupLog(op: number) {
    const rows = await this.w.cluster.bankQuery(
      "SELECT seq, kind, replayed_at FROM payment_backup_log WHERE replayed_at IS NULL",
    );
    for (const r of rows as Row[])
      this.report(
        "backup.applied-once",
        op,
        `seq-${r.seq}`,
        `backup entry ${r.seq} (${r.kind}) was never applied though the wire system is up`,
      );
  }

  // Notifications ----------------------------------------------------------------------------

  /** One live webhook per account at the bank, and one stored event per balance change. */
  private async liveHooks(op: number) {
    const c = this.w.cluster;
    const hooks = await c.bankQuery<{ account_number: string; k: string }>(
      `SELECT account_number, count(*) AS k FROM webhooks WHERE url LIKE '%/api/bank-events/%'
       GROUP BY 1 HAVING count(*) > 1`,
    );
    for (const h of hooks)
      this.report(
        "live.one-webhook",
        op,
        h.account_number,
        `account ${h.account_number} has ${h.k} live-balance webhooks at the bank: every change is sent and stored ${h.k} times`,
      );
    const twice = await c.bankQuery<{ ids: string[] }>(
      `SELECT array_agg(o.message_id) AS ids FROM outbox o JOIN webhooks w ON w.id = o.webhook_id
       WHERE w.url LIKE '%/api/bank-events/%'
       GROUP BY o.payload::text, o.created_at HAVING count(*) > 1 LIMIT 50`,
    );
    if (!twice.length) return;
    const ids = twice.flatMap((t) => t.ids);
    const stored = await c.dashQuery<{ webhook_id: string }>(
      "SELECT webhook_id FROM live_events WHERE webhook_id = ANY($1)",
      [ids],
    );
    const got = new Set(stored.map((s) => s.webhook_id));
    for (const t of twice)
      if (t.ids.filter((x) => got.has(x)).length > 1)
        this.report(
          "live.stored-once",
          op,
          "stored",
          `one balance change was stored ${t.ids.filter((x) => got.has(x)).length} times by the dashboard (webhook-ids ${t.ids.join(", ")})`,
        );
  }

  /** Every notification for the customer's own receiver arrived at least once; repeats are identical. */
  private async sink(op: number) {
    const ids = [...this.w.sinkHooks];
    if (!ids.length) return;
    const rows = await this.w.cluster.bankQuery<{ message_id: string; state: string; payload: unknown }>(
      "SELECT message_id, state, payload FROM outbox WHERE webhook_id = ANY($1)",
      [ids],
    );
    const got = new Map<string, Set<string>>();
    for (const d of this.w.cluster.sinkDeliveries) {
      const s = got.get(d.webhookId) ?? new Set<string>();
      s.add(d.body);
      got.set(d.webhookId, s);
    }
    let missing = 0;
    for (const r of rows) if (!got.has(r.message_id)) missing++;
    if (missing)
      this.report(
        "webhook.delivered",
        op,
        "missing",
        `${missing} of ${rows.length} balance notifications never reached the customer's receiver after it came back`,
      );
    for (const [id, bodies] of got)
      if (bodies.size > 1)
        this.report(
          "webhook.delivered",
          op,
          id,
          `webhook-id ${id} was delivered with ${bodies.size} different bodies`,
        );
  }

  /** Each crossing of an alert line fires once: the bank's order of balance changes decides. */
  private async alerts(op: number) {
    if (!this.w.alertRuleSaved) return;
    const c = this.w.cluster;
    const account = this.w.accounts[ALERT_ACCOUNT];
    const rows = await c.bankQuery<{
      payload: { AvailableBalance: string; PreviousBalance: string };
      created_at: Date;
    }>(
      `SELECT DISTINCT ON (o.payload::text, o.created_at) o.id, o.payload, o.created_at FROM outbox o
       JOIN webhooks w ON w.id = o.webhook_id
       WHERE w.url LIKE '%/api/bank-events/%' AND o.payload->>'AccountNumber' = $1 AND o.id > $2
       ORDER BY o.payload::text, o.created_at, o.id`,
      [account, this.w.alertFromOutboxId],
    );
    const changes = rows as unknown as { payload: { AvailableBalance: string; PreviousBalance: string } }[];
    // Each change of the bank's sequence is one step from its previous balance to its new one.
    const expected = { below: 0, above: 0 };
    for (const r of changes)
      for (const f of crossings(
        ALERT_LINES,
        Number(r.payload.PreviousBalance),
        Number(r.payload.AvailableBalance),
      ))
        expected[f.kind]++;
    const got = await c.dashQuery<{ kind: "below" | "above"; k: string }>(
      "SELECT kind, count(*) AS k FROM alerts WHERE account_number = $1 GROUP BY kind",
      [account],
    );
    const actual = { below: 0, above: 0 };
    for (const g of got) actual[g.kind] = n(g.k);
    for (const kind of ["below", "above"] as const)
      if (actual[kind] !== expected[kind])
        this.report(
          "alert.once-per-crossing",
          op,
          kind,
          `the "${kind}" line of account ${account} was crossed ${expected[kind]} times in the bank's order of changes; the dashboard fired ${actual[kind]} alerts`,
        );
  }

  // Audit ------------------------------------------------------------------------------------

  /** Each confirmed action has exactly one audit entry, in the name of the person who took it. */
  private async audit() {
    const entries = await this.w.cluster.dashQuery<{
      actor_email: string;
      action: string;
      target: string | null;
      result: string;
    }>("SELECT actor_email, action, target, result FROM audit_log");
    const emailOf = (who: string) => this.w.people[who as keyof World["people"]]?.email;
    const FAILED = new Set([
      "denied",
      "stale",
      "bank unavailable",
      "rejected by bank",
      "failed",
      "unconfirmed",
    ]);
    for (const call of this.w.history.calls) {
      if (!ok(call) || call.method === "GET" || call.session !== "normal") continue;
      const a = call.answer as
        | {
            outcome?: string;
            idempotencyKey?: string;
            action?: string;
            user?: { email?: string };
            pending?: unknown[];
          }
        | undefined;
      const who = emailOf(call.actor);
      if (!who) continue;
      let e: { action: (s: string) => boolean; target?: string; what: string; once: boolean } | null = null;
      if (call.path === "/api/transfers" && a?.outcome === "completed")
        e = {
          action: (s) => s === "transfer.sen",
          target: a.idempotencyKey,
          what: "SEN transfer",
          once: true,
        };
      const rel = /^\/api\/drafts\/([^/]+)\/(release|reject)$/.exec(call.path);
      // A release that answers the draft still pending recorded the first of two approvals.
      const vote = (call.answer as { draft?: { status?: string } } | undefined)?.draft?.status === "pending";
      if (rel)
        e =
          rel[2] === "release" && vote
            ? {
                action: (s) => s.startsWith("draft.approve."),
                target: rel[1],
                what: "draft approval",
                once: false,
              }
            : {
                action: (s) => s.startsWith(`draft.${rel[2]}.`),
                target: rel[1],
                what: `draft ${rel[2]}`,
                once: true,
              };
      const dec = /^\/api\/incoming-wires\/([A-Za-z0-9]+)$/.exec(call.path);
      if (dec && a?.outcome)
        e =
          a.outcome === "awaiting_second_approval"
            ? {
                action: (s) => s === "incoming_wire.vote",
                target: dec[1],
                what: "incoming-wire vote",
                once: false,
              }
            : {
                action: (s) => s === `incoming_wire.${a.action}`,
                target: dec[1],
                what: `incoming-wire ${a.action}`,
                once: true,
              };
      // A reset that waits for a second admin is audited as the request it is.
      const waits = call.status === 202 || !!a?.pending?.length;
      if (/^\/api\/admin\/users\/[^/]+\/reset-password$/.test(call.path))
        e = {
          action: (s) => s === (waits ? "admin_change.request" : "user.password_reset"),
          target: a?.user?.email,
          what: "password reset",
          once: false,
        };
      if (!e) continue;
      const x = e;
      const done = entries.filter(
        (y) => x.action(y.action) && y.target === x.target && !FAILED.has(y.result),
      );
      if (!done.some((y) => y.actor_email === who))
        this.report(
          "audit.exactly-once",
          call.op,
          `${x.what}-${x.target}-${who}`,
          `${x.what} of ${x.target} by ${who} (answered ${call.status}) is not in the audit log under that person`,
        );
      // A form sent again after its connection dropped is its own case: the bank acts once, the
      // dashboard may audit each answer it got.
      const retried =
        call.path === "/api/transfers" &&
        this.w.history.calls.some(
          (y) => y !== call && y.op === call.op && y.path === call.path && y.status === "aborted",
        );
      if (x.once && done.length > 1)
        this.report(
          retried ? "audit.retry-once" : "audit.exactly-once",
          call.op,
          `${x.what}-${x.target}`,
          `${x.what} of ${x.target} is in the audit log ${done.length} times as done (${done.map((y) => `${y.actor_email}: ${y.result}`).join("; ")})`,
        );
    }
  }
}
