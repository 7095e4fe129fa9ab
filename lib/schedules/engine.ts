// The schedule run: writes down each occurrence that has come due by the bank's business date
// (once: the series and the day its rule names are its primary key), claims due occurrences one
// run at a time (FOR UPDATE SKIP LOCKED, a lease that a killed run's successor takes over), and
// sends each as the same payment a person would make, with Idempotency-Key = the occurrence's key,
// so any number of instances, restarts and retries pay it once.
import { randomUUID } from "node:crypto";
import "server-only";
import { appendAudit } from "../audit/log.ts";
import { rollToBusinessDay } from "../bank-api/business-days.ts";
import { addDays, businessDayFormatter } from "../bank-api/dates.ts";
import type { InitiatePaymentInput } from "../bank-api/payments.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { BankError, BankResult } from "../bank-client/errors.ts";
import { nextOccurrence, occurrencesBetween } from "../calendar/recurrence.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { queueMail } from "../inbox/digest.ts";
import { sendOutgoingWire, type WireChannel } from "../payments/wire-fallback.ts";
import { approvalsNeeded, payeeHold, seriesTally } from "./approval.ts";
import { occurrenceKey, type SeriesRow } from "./series.ts";
import type { OccurrenceStatus } from "./states.ts";

export interface RunOptions {
  /** The bank's business date (YYYY-MM-DD): occurrences paid on or before it are due. */
  today: string;
  /** A claim older than this (a run that died) is taken over. */
  leaseSeconds?: number;
  /** Occurrences claimed at a time. */
  batch?: number;
  /** Occurrences sent at once within a batch. */
  concurrency?: number;
}

export interface RunReport {
  written: number;
  sent: number;
  queued: number;
  failed: number;
  skipped: number;
  /** Sends that ended without an answer: the occurrence is due again, under the same key. */
  retry: number;
}

interface OccurrenceRow {
  series_id: string;
  nominal_day: string;
  day: string;
  key: string;
  status: OccurrenceStatus;
  version: number | null;
  amount_cents: number | null;
  request: Record<string, unknown> | null;
  claim_token: string | null;
  attempts: number;
  channel: string | null;
  payment_id: string | null;
}

const SYSTEM = { actorId: "schedule", actorEmail: "schedule", ip: null };

/**
 * The bank's business date now: its clock heard afresh (its health answer's `Date`, which the
 * sandbox may move), in `timeZone`; null when it does not answer.
 */
export async function bankBusinessDate(bank: BankClient, timeZone: string): Promise<string | null> {
  if (!(await bank.learnBankTime({ fresh: true }))) return null;
  return businessDayFormatter(timeZone)(bankNow());
}

/**
 * Writes down the occurrences of active series paid from their `next_day` up to today, and moves
 * `next_day` on. The move is a compare-and-set on `next_day`, in the transaction of the inserts:
 * two instances writing the same series at once write it once.
 */
export async function writeDueOccurrences(db: DashboardDb, today: string, limit = 500): Promise<number> {
  let written = 0;
  for (;;) {
    const due = await db.query<Pick<SeriesRow, "id" | "rule" | "roll" | "next_day">>(
      `SELECT id, rule, roll, next_day FROM payment_series
       WHERE status = 'active' AND next_day IS NOT NULL AND next_day <= $1 ORDER BY next_day, id LIMIT $2`,
      [today, limit],
    );
    if (!due.length) return written;
    for (const s of due) {
      const from = s.next_day as string;
      const occ = occurrencesBetween(s.rule, s.roll, from, today);
      const next = nextOccurrence(s.rule, s.roll, addDays(today, 1));
      written += await db.tx(async (q) => {
        const moved = await q.query(
          `UPDATE payment_series SET next_day = $3, status = CASE WHEN $3::text IS NULL THEN 'ended' ELSE status END
           WHERE id = $1 AND next_day = $2 AND status = 'active' RETURNING id`,
          [s.id, from, next?.day ?? null],
        );
        if (!moved[0] || !occ.length) return 0;
        const rows = await q.query(
          `INSERT INTO series_occurrences (series_id, nominal_day, day, key)
           SELECT $1, n, d, k FROM unnest($2::text[], $3::text[], $4::uuid[]) AS t(n, d, k)
           ON CONFLICT (series_id, nominal_day) DO NOTHING RETURNING 1`,
          [
            s.id,
            occ.map((o) => o.nominal),
            occ.map((o) => o.day),
            occ.map((o) => occurrenceKey(s.id, o.nominal)),
          ],
        );
        return rows.length;
      });
    }
  }
}

/** Claims due occurrences for this run: due ones, and ones whose run died (lease over). */
async function claim(db: Queryable, today: string, token: string, leaseSeconds: number, batch: number) {
  return db.query<OccurrenceRow>(
    `UPDATE series_occurrences o SET status = 'sending', claim_token = $2, claimed_at = now(),
       attempts = o.attempts + 1, updated_at = now()
     FROM (SELECT series_id, nominal_day FROM series_occurrences
           WHERE day <= $1 AND (status = 'due' OR (status = 'sending' AND claimed_at < now() - make_interval(secs => $3)))
           ORDER BY day, series_id, nominal_day LIMIT $4 FOR UPDATE SKIP LOCKED) c
     WHERE o.series_id = c.series_id AND o.nominal_day = c.nominal_day
     RETURNING o.*`,
    [today, token, leaseSeconds, batch],
  );
}

/** Ends an occurrence this run holds; false when its claim was taken over meanwhile. */
async function finish(
  db: Queryable,
  o: OccurrenceRow,
  token: string,
  set: {
    status: OccurrenceStatus;
    reason?: string | null;
    paymentId?: string | null;
    bankAnswer?: unknown;
    channel?: string | null;
  },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE series_occurrences SET status = $4, reason = $5, payment_id = coalesce($6, payment_id),
       bank_answer = coalesce($7::jsonb, bank_answer), channel = coalesce($8, channel), claim_token = NULL, updated_at = now()
     WHERE series_id = $1 AND nominal_day = $2 AND claim_token = $3 RETURNING 1`,
    [
      o.series_id,
      o.nominal_day,
      token,
      set.status,
      set.reason ?? null,
      set.paymentId ?? null,
      set.bankAnswer === undefined ? null : JSON.stringify(set.bankAnswer),
      set.channel ?? null,
    ],
  );
  return rows.length > 0;
}

/** Tells the preparer and the series' approvers (else every approver) that an occurrence did not go. */
async function tellFailure(db: Queryable, s: SeriesRow, o: OccurrenceRow, reason: string): Promise<void> {
  const approvers = await db.query<{ email: string }>(
    `SELECT DISTINCT approver_email AS email FROM series_approvals WHERE series_id = $1`,
    [s.id],
  );
  const others = approvers.length
    ? approvers
    : await db.query<{ email: string }>(
        `SELECT email FROM users WHERE role IN ('approver', 'admin') AND NOT disabled ORDER BY email LIMIT 20`,
      );
  const to = [...new Set([s.prepared_by_email, ...others.map((a) => a.email)])];
  const amount = (s.amount_cents / 100).toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
  });
  for (const addr of to)
    await queueMail(db, {
      to: addr,
      kind: "schedule.failed",
      subject: `Scheduled payment not sent: ${s.name} on ${o.day}`,
      text: `The scheduled payment "${s.name}" (${amount} from ${s.from_account} to ${s.counterparty}) due on ${o.day} was not sent: ${reason}\n\nThe series goes on with its next occurrence unless it is paused on the Scheduled page.`,
    });
}

type Outcome = "sent" | "queued" | "failed" | "skipped" | "retry";

async function sendOne(db: DashboardDb, bank: BankClient, o: OccurrenceRow, token: string): Promise<Outcome> {
  const [s] = await db.query<SeriesRow>("SELECT * FROM payment_series WHERE id = $1", [o.series_id]);
  // An ended series has written its last occurrence, which is still paid.
  if (s.status === "paused" || s.status === "cancelled") {
    await finish(db, o, token, { status: "skipped", reason: `the series is ${s.status}` });
    await appendAudit(db, {
      ...SYSTEM,
      action: `schedule.occurrence.${s.kind}`,
      target: o.key,
      result: "skipped",
      detail: { series: s.name, seriesId: s.id, day: o.day, status: s.status },
    });
    return "skipped";
  }
  // The first attempt fixes what is sent: a resend after a lost answer repeats it exactly.
  let request = o.request;
  let version = o.version;
  let amountCents = o.amount_cents;
  if (!request) {
    request = s.request;
    version = s.version;
    amountCents = s.amount_cents;
    await db.query(
      `UPDATE series_occurrences SET request = $4, version = $5, amount_cents = $6
       WHERE series_id = $1 AND nominal_day = $2 AND claim_token = $3`,
      [o.series_id, o.nominal_day, token, JSON.stringify(request), version, amountCents],
    );
  }
  const detail = {
    series: s.name,
    seriesId: s.id,
    day: o.day,
    nominalDay: o.nominal_day,
    amountCents,
    version,
  };
  const fail = async (reason: string, bankAnswer?: unknown): Promise<Outcome> => {
    if (!(await finish(db, o, token, { status: "failed", reason, bankAnswer }))) return "retry";
    await appendAudit(db, {
      ...SYSTEM,
      action: `schedule.occurrence.${s.kind}`,
      target: o.key,
      result: "failed",
      detail: { ...detail, reason },
    });
    await tellFailure(db, s, o, reason);
    return "failed";
  };

  // A payee whose change waits for a second person is paid by no one until it is decided.
  const hold = await payeeHold(db, s.beneficiary_id);
  if (hold) return fail(hold);
  // Approval is judged now, as for a payment made by hand now (its payee's history included):
  // approvers of this version count.
  const payment = {
    kind: s.kind,
    amountCents: amountCents as number,
    fromAccount: s.from_account,
    preparedBy: s.prepared_by,
    beneficiaryId: s.beneficiary_id,
  };
  const needed = await approvalsNeeded(db, payment);
  const voters = await db.query<{ approver_id: string }>(
    `SELECT approver_id FROM series_approvals WHERE series_id = $1 AND version = $2 AND approver_id <> $3
     ORDER BY approved_at, approver_id`,
    [s.id, version, s.prepared_by],
  );
  const counted = (
    await seriesTally(
      db,
      payment,
      voters.map((v) => v.approver_id),
    )
  ).counted;
  const n = counted.length;
  if (n < needed)
    return fail(
      version === s.version
        ? `it needs ${needed} approval${needed > 1 ? "s" : ""} and has ${n}`
        : "the series changed and its new version waits for approval",
    );

  let channel: WireChannel | null = null;
  let result: BankResult<unknown>;
  if (s.kind === "wire") {
    const sent = await sendOutgoingWire(bank, request as InitiatePaymentInput, o.key, {
      beforeSend: async (c) => {
        const rows = await db.query(
          `UPDATE series_occurrences SET channel = $4 WHERE series_id = $1 AND nominal_day = $2 AND claim_token = $3 RETURNING 1`,
          [o.series_id, o.nominal_day, token, c],
        );
        if (!rows[0]) throw new Error("claim taken over");
      },
    });
    channel = sent.channel;
    result = sent.result;
  } else {
    result = await bank.call("transferSen", { body: request as never, idempotencyKey: o.key });
  }

  if (result.ok) {
    const answer = result.data as Record<string, unknown>;
    const paymentId = typeof answer.payment_id === "string" && answer.payment_id ? answer.payment_id : null;
    const queued = answer.payment_status === "Pre-Approval";
    const status = queued ? "queued" : "sent";
    const mine = await finish(db, o, token, {
      status,
      paymentId,
      bankAnswer: answer,
      channel: queued ? "backup" : channel,
    });
    await appendAudit(db, {
      ...SYSTEM,
      action: `schedule.occurrence.${s.kind}`,
      target: o.key,
      result: mine ? status : "taken over",
      detail: { ...detail, channel: queued ? "backup" : channel, bankAnswer: answer },
    });
    return mine ? status : "retry";
  }
  const error: BankError = result.error;
  if (error.kind === "rejected")
    return fail(`the bank refused it: ${error.message}`, {
      error: error.message,
      fields: error.fields ?? [],
    });
  // No answer: due again under the same key, so the next run's resend is answered with this one's payment.
  await db.query(
    `UPDATE series_occurrences SET status = 'due', claim_token = NULL, updated_at = now(),
       channel = CASE WHEN $4 THEN NULL ELSE channel END
     WHERE series_id = $1 AND nominal_day = $2 AND claim_token = $3`,
    [
      o.series_id,
      o.nominal_day,
      token,
      error.kind === "unavailable" && error.status === 503 && channel === "backup",
    ],
  );
  await appendAudit(db, {
    ...SYSTEM,
    action: `schedule.occurrence.${s.kind}`,
    target: o.key,
    result: "bank unavailable",
    detail: { ...detail, error: error.message },
  });
  return "retry";
}

/** Queued wires (in the bank's backup log) become sent once the replay moves them on, failed when it cancels them. */
export async function settleQueuedOccurrences(db: DashboardDb, bank: BankClient): Promise<void> {
  const rows = await db.query<OccurrenceRow & { from_account: string; name: string }>(
    `SELECT o.*, s.from_account, s.name FROM series_occurrences o JOIN payment_series s ON s.id = o.series_id
     WHERE o.status = 'queued' AND o.payment_id IS NOT NULL ORDER BY o.updated_at LIMIT 50`,
  );
  for (const r of rows) {
    const listed = await bank.call("listPayments", {
      query: { account_number: r.from_account, payment_id: r.payment_id as string },
    });
    if (!listed.ok) return;
    const p = listed.data.find((x) => x.payment_id === r.payment_id);
    if (!p || p.payment_status === "Pre-Approval") continue;
    const status = p.payment_status === "Canceled" ? "failed" : "sent";
    const done = await db.query(
      `UPDATE series_occurrences SET status = $3, reason = $4, updated_at = now()
       WHERE series_id = $1 AND nominal_day = $2 AND status = 'queued' RETURNING 1`,
      [r.series_id, r.nominal_day, status, status === "failed" ? "the bank canceled it on replay" : null],
    );
    if (done[0])
      await appendAudit(db, {
        ...SYSTEM,
        action: "schedule.occurrence.reprocessed",
        target: r.key,
        result: status,
        detail: {
          series: r.name,
          seriesId: r.series_id,
          day: r.day,
          paymentId: p.payment_id,
          bankStatus: p.payment_status,
        },
      });
  }
}

/**
 * One run for the bank's business date: write down what has come due, then claim and send until
 * nothing due is left unclaimed. Safe to run on every instance at once and again after a crash.
 */
export async function runSchedules(db: DashboardDb, bank: BankClient, o: RunOptions): Promise<RunReport> {
  const report: RunReport = { written: 0, sent: 0, queued: 0, failed: 0, skipped: 0, retry: 0 };
  // Only a business day pays: on a weekend or holiday nothing is due that was not due before.
  const today = rollToBusinessDay(o.today, "preceding");
  report.written = await writeDueOccurrences(db, today);
  const token = randomUUID();
  for (;;) {
    const claimed = await claim(db, today, token, o.leaseSeconds ?? 120, o.batch ?? 50);
    if (!claimed.length) break;
    // Occurrences are independent once claimed: a few at a time keeps the bank's group commit busy.
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const occ = claimed[next++];
        report[await sendOne(db, bank, occ, token)]++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(o.concurrency ?? 8, claimed.length) }, worker));
    // An occurrence sent back to due (no answer) waits for the next run rather than spinning here.
    if (report.retry) break;
  }
  await settleQueuedOccurrences(db, bank);
  return report;
}
