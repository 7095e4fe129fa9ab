// Statement subscriptions: "each business day at 07:00 (the bank's time zone and clock), the
// prior-day BAI2 of these accounts", e-mailed as an attachment through DASHBOARD_SMTP_URL and kept
// 90 days for the Statements page.
//
// Exactly once per subscription and business day across instances and restarts: the delivery row,
// keyed by both, is the claim (the instance whose INSERT wins builds the file; a claim whose run
// died is taken over after its lease, as scheduled payments' occurrences are). The run holding the
// claim sends the message, then writes the file, the row's 'delivered' and the message's record in
// one transaction that holds only while the claim is still this run's. A business day when no
// instance ran is delivered by the next run, oldest first. A failed attempt is retried with
// backoff; after the last, the day is 'failed', told to its people, and "Retry now" reopens it.
import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import type { Actor } from "../audit/log.ts";
import { appendAudit } from "../audit/log.ts";
import { addBusinessDays, businessDaysBetween, isBusinessDay } from "../bank-api/business-days.ts";
import { addDays, businessDayFormatter } from "../bank-api/dates.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import type { statementDeliveries, statementSubscriptions } from "../db/schema.ts";
import { queueMail } from "../inbox/mail-outbox.ts";
import { smtpOptions } from "../server/smtp.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { ownedAccounts, prepareStatement } from "./export.ts";

/** The hour (bank's time zone) from which a business day's delivery is due. */
export const DELIVERY_HOUR = 7;
/** Delivered files stay this many days. */
export const KEEP_DAYS = 90;
/** A claim older than this (its run died) is taken over. */
const LEASE_SECONDS = 300;
const SMTP_TIMEOUT_MS = 10_000;

export interface StatementSubscription {
  id: string;
  name: string;
  accounts: string[];
  recipients: string[];
  startsOn: string;
  createdBy: string;
  createdAt: string;
  cancelledAt: string | null;
}

/** A delivery as the Statements page shows it: a claimed attempt under way reads as 'retrying'. */
export const DELIVERY_STATUSES = ["delivered", "retrying", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface StatementDelivery {
  subscriptionId: string;
  businessDay: string;
  fromDay: string;
  toDay: string;
  status: DeliveryStatus;
  /** The file's name once delivered. */
  fileName: string | null;
  deliveredAt: string | null;
  attempts: number;
  /** Why the last attempt failed (retrying or failed). */
  reason: string | null;
  /** When the next attempt is due (the bank's clock), while retrying. */
  nextAttemptAt: string | null;
  failedAt: string | null;
}

type SubscriptionRow = Pick<
  SqlRow<typeof statementSubscriptions>,
  "id" | "name" | "accounts" | "recipients" | "starts_on" | "created_by" | "created_at" | "cancelled_at"
>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const fromRow = (r: SubscriptionRow): StatementSubscription => ({
  id: r.id,
  name: r.name,
  accounts: r.accounts,
  recipients: r.recipients,
  startsOn: r.starts_on,
  createdBy: r.created_by,
  createdAt: iso(r.created_at) as string,
  cancelledAt: iso(r.cancelled_at),
});

const COLUMNS = "id, name, accounts, recipients, starts_on, created_by, created_at, cancelled_at";

/** The bank's hour of the day (0-23) at `at` in its time zone. */
function hourIn(at: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" }).format(at));
}

/**
 * The delivery due at the bank's `now`: on a business day from 07:00, the statement of the days
 * since the previous business day's start through yesterday (Monday's: Friday to Sunday, so
 * nothing booked over a weekend or holiday is left out); null before 07:00 or on other days.
 */
export function dueDelivery(
  now: Date,
  timeZone: string,
): { businessDay: string; from: string; to: string } | null {
  const today = businessDayFormatter(timeZone)(now);
  if (!isBusinessDay(today) || hourIn(now, timeZone) < DELIVERY_HOUR) return null;
  return { businessDay: today, from: addBusinessDays(today, -1), to: addDays(today, -1) };
}

/** A new subscription, delivering from the bank's next business day (audited, in one transaction). */
export async function createSubscription(
  db: Pick<DashboardDb, "tx">,
  actor: Actor,
  o: { name: string; accounts: string[]; recipients: string[]; bankToday: string },
): Promise<StatementSubscription> {
  const id = randomUUID();
  return db.tx(async (q) => {
    const rows = await q.query<SubscriptionRow>(
      `INSERT INTO statement_subscriptions (id, name, accounts, recipients, starts_on, created_by)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [id, o.name, o.accounts, o.recipients, addDays(o.bankToday, 1), actor.email],
    );
    await appendAudit(q, {
      actorId: actor.id,
      actorEmail: actor.email,
      ip: actor.ip ?? null,
      action: "statement_subscription.create",
      target: id,
      result: "ok",
      detail: { name: o.name, accounts: o.accounts, recipients: o.recipients },
    });
    return fromRow(rows[0]);
  });
}

/** Ends a subscription (audited); its delivered files stay their 90 days. */
export async function cancelSubscription(
  db: Pick<DashboardDb, "tx">,
  actor: Actor,
  id: string,
): Promise<StatementSubscription | null> {
  return db.tx(async (q) => {
    const rows = await q.query<SubscriptionRow>(
      `UPDATE statement_subscriptions SET cancelled_at = now(), cancelled_by = $2
       WHERE id = $1 AND cancelled_at IS NULL RETURNING ${COLUMNS}`,
      [id, actor.email],
    );
    if (!rows.length) {
      const any = await q.query<SubscriptionRow>(
        `SELECT ${COLUMNS} FROM statement_subscriptions WHERE id = $1`,
        [id],
      );
      return any.length ? fromRow(any[0]) : null;
    }
    // A day waiting for its next attempt is not attempted again: it ends failed, with why.
    await q.query(
      `UPDATE statement_deliveries SET status = 'failed', failed_at = now(), next_attempt_at = NULL,
         last_error = coalesce(last_error || '; ', '') || 'the subscription was cancelled'
       WHERE subscription_id = $1 AND status = 'retrying'`,
      [id],
    );
    await appendAudit(q, {
      actorId: actor.id,
      actorEmail: actor.email,
      ip: actor.ip ?? null,
      action: "statement_subscription.cancel",
      target: id,
      result: "ok",
      detail: { name: rows[0].name },
    });
    return fromRow(rows[0]);
  });
}

export async function listSubscriptions(db: Queryable): Promise<StatementSubscription[]> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM statement_subscriptions ORDER BY created_at DESC`,
  );
  return rows.map(fromRow);
}

type DeliveryRow = Pick<
  SqlRow<typeof statementDeliveries>,
  | "subscription_id"
  | "business_day"
  | "from_day"
  | "to_day"
  | "status"
  | "file_name"
  | "delivered_at"
  | "attempts"
  | "last_error"
  | "next_attempt_at"
  | "failed_at"
>;

const DELIVERY_COLUMNS =
  "subscription_id, business_day, from_day, to_day, status, file_name, delivered_at, attempts, last_error, next_attempt_at, failed_at";

const deliveryFromRow = (r: DeliveryRow): StatementDelivery => ({
  subscriptionId: r.subscription_id,
  businessDay: r.business_day,
  fromDay: r.from_day,
  toDay: r.to_day,
  status: (r.status === "claimed" ? "retrying" : r.status) as DeliveryStatus,
  fileName: r.file_name,
  deliveredAt: iso(r.delivered_at),
  attempts: r.attempts,
  reason: r.status === "delivered" ? null : r.last_error,
  nextAttemptAt: r.status === "retrying" && r.next_attempt_at ? iso(r.next_attempt_at) : null,
  failedAt: iso(r.failed_at),
});

/** The deliveries still kept (delivered, being retried, failed), newest first. */
export async function listDeliveries(db: Queryable): Promise<StatementDelivery[]> {
  const rows = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM statement_deliveries
     ORDER BY business_day DESC, delivered_at DESC NULLS FIRST LIMIT 1000`,
  );
  return rows.map(deliveryFromRow);
}

/** One delivered file, or null. */
export async function deliveredFile(
  db: Queryable,
  subscriptionId: string,
  businessDay: string,
): Promise<{ fileName: string; content: string } | null> {
  const rows = await db.query<{ file_name: string; content: string }>(
    `SELECT file_name, content FROM statement_deliveries
     WHERE subscription_id = $1 AND business_day = $2 AND status = 'delivered'`,
    [subscriptionId, businessDay],
  );
  return rows.length ? { fileName: rows[0].file_name, content: rows[0].content } : null;
}

/**
 * The wait before the next attempt after the `attempts`-th one failed: 1, 5, 15 minutes, then an
 * hour; after the MAX_ATTEMPTS-th the delivery is failed.
 */
export const RETRY_MINUTES = [1, 5, 15, 60] as const;
export const MAX_ATTEMPTS = 8;
export const retryDelayMinutes = (attempts: number): number =>
  RETRY_MINUTES[Math.min(Math.max(attempts, 1), RETRY_MINUTES.length) - 1];

/** The business day whose delivery a day was (its 07:00), and the range its statement covers. */
export function slotOf(businessDay: string): { businessDay: string; from: string; to: string } {
  return { businessDay, from: addBusinessDays(businessDay, -1), to: addDays(businessDay, -1) };
}

/**
 * The business days whose 07:00 has come by the bank's `now`, from `first` (and no earlier than the
 * 90 days files are kept), oldest first: a day when no instance ran is still due.
 */
export function dueDays(now: Date, timeZone: string, first: string): string[] {
  const today = businessDayFormatter(timeZone)(now);
  const last = dueDelivery(now, timeZone) ? today : addDays(today, -1);
  const from = first > addDays(today, -KEEP_DAYS) ? first : addDays(today, -KEEP_DAYS);
  return from <= last ? businessDaysBetween(from, last) : [];
}

/**
 * Claims a subscription's delivery of a business day: its attempt number when this run holds it
 * now, else null. A new day is inserted; a day waiting for its retry is taken once that is due; a
 * claim whose run died is taken over after its lease.
 */
async function claim(
  db: Queryable,
  subscriptionId: string,
  slot: { businessDay: string; from: string; to: string },
  token: string,
  now: Date,
): Promise<number | null> {
  const rows = await db.query<{ attempts: number }>(
    `INSERT INTO statement_deliveries (subscription_id, business_day, from_day, to_day, status, claim_token)
     VALUES ($1, $2, $3, $4, 'claimed', $5)
     ON CONFLICT (subscription_id, business_day) DO UPDATE
       SET status = 'claimed', claim_token = EXCLUDED.claim_token, claimed_at = now(),
           next_attempt_at = NULL, attempts = statement_deliveries.attempts + 1
       WHERE (statement_deliveries.status = 'claimed'
              AND statement_deliveries.claimed_at < now() - make_interval(secs => $6))
          OR (statement_deliveries.status = 'retrying'
              AND (statement_deliveries.next_attempt_at IS NULL OR statement_deliveries.next_attempt_at <= $7))
     RETURNING attempts`,
    [subscriptionId, slot.businessDay, slot.from, slot.to, token, LEASE_SECONDS, now],
  );
  return rows.length ? rows[0].attempts : null;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let out = "";
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out += decoder.decode(value, { stream: true });
  }
  return out + decoder.decode();
}

export interface SubscriptionRunOutcome {
  /** Today's business day when its 07:00 delivery is due, or null. */
  businessDay: string | null;
  /** Deliveries e-mailed by this run (today's and days missed or retried). */
  delivered: number;
  /** Attempts of this run that failed (each retried later, or given up). */
  failed: number;
  /** Deliveries this run gave up: 'failed', their people told. */
  gaveUp: number;
}

/** Where the statement e-mail goes: without an SMTP URL it is kept in the outbox (/mail) unsent. */
export interface StatementMailSettings {
  smtpUrl?: string;
  from: string;
}

const SYSTEM = { actorId: "statements", actorEmail: "statements", ip: null };

/**
 * One run at the bank's `now`: for each active subscription, every business day whose 07:00 has
 * come and that is not delivered (today's, days when no instance ran, days whose retry is due),
 * oldest first, claimed, built, e-mailed and stored once; files older than 90 days removed. A
 * failed attempt is retried after 1, 5, 15, then 60 minutes; after MAX_ATTEMPTS the day is
 * 'failed' and the subscription's owner and the administrators are told. Safe on every instance.
 */
export async function runStatementSubscriptions(
  db: DashboardDb,
  bank: BankClient,
  o: { timeZone: string; now?: Date; mail: StatementMailSettings },
): Promise<SubscriptionRunOutcome> {
  const outcome: SubscriptionRunOutcome = { businessDay: null, delivered: 0, failed: 0, gaveUp: 0 };
  if (!o.now && !(await bank.learnBankTime({ fresh: true }))) return outcome;
  const now = o.now ?? bankNow();
  const today = businessDayFormatter(o.timeZone)(now);
  await db.query("DELETE FROM statement_deliveries WHERE business_day < $1", [addDays(today, -KEEP_DAYS)]);
  outcome.businessDay = dueDelivery(now, o.timeZone)?.businessDay ?? null;
  const subs = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM statement_subscriptions
     WHERE cancelled_at IS NULL AND starts_on <= $1 ORDER BY created_at, id`,
    [today],
  );
  if (!subs.length) return outcome;
  const settled = await db.query<{ subscription_id: string; business_day: string }>(
    `SELECT subscription_id, business_day FROM statement_deliveries
     WHERE status IN ('delivered', 'failed') AND business_day >= $1 AND subscription_id = ANY($2::uuid[])`,
    [addDays(today, -KEEP_DAYS), subs.map((s) => s.id)],
  );
  const done = new Set(settled.map((r) => `${r.subscription_id}/${r.business_day}`));
  for (const s of subs) {
    for (const day of dueDays(now, o.timeZone, s.starts_on)) {
      if (done.has(`${s.id}/${day}`)) continue;
      const token = randomUUID();
      const slot = slotOf(day);
      const attempt = await claim(db, s.id, slot, token, now);
      if (attempt === null) continue;
      const result = await deliverOne(db, bank, s, slot, token, attempt, now, o);
      if (result === "delivered") outcome.delivered++;
      else if (result === "retrying") outcome.failed++;
      else if (result === "failed") {
        outcome.failed++;
        outcome.gaveUp++;
      }
    }
  }
  return outcome;
}

/** One claimed attempt: the file built, e-mailed and stored, or the failure recorded. */
async function deliverOne(
  db: DashboardDb,
  bank: BankClient,
  s: SubscriptionRow,
  slot: { businessDay: string; from: string; to: string },
  token: string,
  attempt: number,
  now: Date,
  o: { timeZone: string; mail: StatementMailSettings },
): Promise<"delivered" | "retrying" | "failed" | "lost"> {
  let sent: { fileName: string; content: string } | null = null;
  try {
    const names = await ownedAccounts(bank, s.accounts);
    const prepared = await prepareStatement(
      bank,
      "bai2",
      { accounts: s.accounts, from: slot.from, to: slot.to },
      { names, timeZone: o.timeZone },
    );
    const content = await readAll(prepared.body);
    const message = {
      to: s.recipients.join(","),
      subject: `BAI2 statement ${slot.from === slot.to ? slot.to : `${slot.from} to ${slot.to}`}: ${s.name}`,
      text:
        `The prior-day BAI2 statement of ${s.accounts.join(", ")} (${slot.from} to ${slot.to}), ` +
        `from the subscription "${s.name}". It is attached, and kept ${KEEP_DAYS} days on the Statements page.`,
      kind: "statement",
      attachment: { name: prepared.fileName, type: "text/plain", content },
    };
    // The claim is renewed just before the message goes: no other run sends it while it is sent.
    const held = await db.query(
      `UPDATE statement_deliveries SET claimed_at = now()
       WHERE subscription_id = $1 AND business_day = $2 AND claim_token = $3 AND status = 'claimed' RETURNING 1`,
      [s.id, slot.businessDay, token],
    );
    if (!held.length) return "lost";
    if (o.mail.smtpUrl) {
      await sendStatementMail(o.mail.smtpUrl, o.mail.from, `statement-${s.id}-${slot.businessDay}`, message);
      sent = { fileName: prepared.fileName, content };
    }
    const ok = await db.tx(async (q) => {
      const mailId = await queueMail(q, message);
      if (o.mail.smtpUrl)
        await q.query("UPDATE mail_outbox SET sent_at = now(), attempts = 1 WHERE id = $1", [mailId]);
      const rows = await q.query(
        `UPDATE statement_deliveries SET status = 'delivered', file_name = $4, content = $5, mail_id = $6,
           delivered_at = now(), claim_token = NULL, last_error = NULL, next_attempt_at = NULL
         WHERE subscription_id = $1 AND business_day = $2 AND claim_token = $3 AND status = 'claimed'
         RETURNING 1`,
        [s.id, slot.businessDay, token, prepared.fileName, content, mailId],
      );
      // The claim was taken over meanwhile: the other run delivers; this record is not written.
      if (!rows.length) throw new ClaimLost();
      return true;
    });
    return ok ? "delivered" : "lost";
  } catch (err) {
    if (err instanceof ClaimLost) return "lost";
    // The message went but its record could not be written: the day is delivered all the same
    // (without its /mail record), never an attempt to send again.
    if (sent) return (await markSent(db, s.id, slot.businessDay, token, sent)) ? "delivered" : "lost";
    const reason = failureReason(err);
    if (attempt < MAX_ATTEMPTS) {
      const next = new Date(now.getTime() + retryDelayMinutes(attempt) * 60_000);
      await db.query(
        `UPDATE statement_deliveries SET status = 'retrying', last_error = $4, next_attempt_at = $5, claim_token = NULL
         WHERE subscription_id = $1 AND business_day = $2 AND claim_token = $3 AND status = 'claimed'`,
        [s.id, slot.businessDay, token, reason, next],
      );
      return "retrying";
    }
    const gaveUp = await db.tx(async (q) => {
      const rows = await q.query(
        `UPDATE statement_deliveries SET status = 'failed', last_error = $4, failed_at = now(), claim_token = NULL,
           next_attempt_at = NULL
         WHERE subscription_id = $1 AND business_day = $2 AND claim_token = $3 AND status = 'claimed' RETURNING 1`,
        [s.id, slot.businessDay, token, reason],
      );
      if (!rows.length) return false;
      await appendAudit(q, {
        ...SYSTEM,
        action: "statement_subscription.delivery",
        target: `${s.id}/${slot.businessDay}`,
        result: "failed",
        detail: { name: s.name, businessDay: slot.businessDay, attempts: attempt, reason },
      });
      await tellFailure(q, s, slot.businessDay, attempt, reason);
      return true;
    });
    return gaveUp ? "failed" : "lost";
  }
}

/** A day whose message was sent marked delivered with its file, as long as the claim is this run's. */
async function markSent(
  db: Queryable,
  subscriptionId: string,
  businessDay: string,
  token: string,
  file: { fileName: string; content: string },
): Promise<boolean> {
  try {
    const rows = await db.query(
      `UPDATE statement_deliveries SET status = 'delivered', file_name = $4, content = $5, delivered_at = now(),
         claim_token = NULL, last_error = NULL, next_attempt_at = NULL
       WHERE subscription_id = $1 AND business_day = $2 AND claim_token = $3 AND status = 'claimed' RETURNING 1`,
      [subscriptionId, businessDay, token, file.fileName, file.content],
    );
    return rows.length > 0;
  } catch {
    // The database is away: the claim stays, and whoever takes it over after the lease sends again.
    return false;
  }
}

/** What a person reads as the reason a delivery failed. */
function failureReason(err: unknown): string {
  const e = err as { message?: string; code?: string };
  const text = e?.message
    ? `${e.code && !e.message.includes(e.code) ? `${e.code}: ` : ""}${e.message}`
    : String(err);
  return text.slice(0, 500);
}

async function sendStatementMail(
  smtpUrl: string,
  from: string,
  id: string,
  m: {
    to: string;
    subject: string;
    text: string;
    attachment: { name: string; type: string; content: string };
  },
): Promise<void> {
  const transport = nodemailer.createTransport(
    smtpOptions(smtpUrl, { variable: "DASHBOARD_SMTP_URL", timeoutMs: SMTP_TIMEOUT_MS }) as never,
  );
  try {
    const domain = /@([^>\s]+)/.exec(from)?.[1] ?? "treasury.localhost";
    await transport.sendMail({
      from,
      to: m.to.split(","),
      subject: m.subject,
      text: m.text,
      // One id per subscription and day: a receiver recognises any copy as the same message.
      messageId: `<${id}@${domain}>`,
      attachments: [
        { filename: m.attachment.name, content: m.attachment.content, contentType: m.attachment.type },
      ],
    });
  } finally {
    transport.close();
  }
}

/** The subscription's owner and the administrators are told that a day's statement was not delivered. */
async function tellFailure(
  q: Queryable,
  s: SubscriptionRow,
  businessDay: string,
  attempts: number,
  reason: string,
): Promise<void> {
  const admins = await q.query<{ email: string }>(
    "SELECT email FROM users WHERE role = 'admin' AND NOT disabled ORDER BY email LIMIT 20",
  );
  const to = [...new Set([s.created_by.toLowerCase(), ...admins.map((a) => a.email.toLowerCase())])];
  for (const addr of to)
    await queueMail(q, {
      to: addr,
      kind: "statement.failed",
      subject: `Statement not delivered: ${s.name} for ${businessDay}`,
      text:
        `The BAI2 statement of the subscription "${s.name}" due at 07:00 on ${businessDay} was not delivered ` +
        `after ${attempts} attempts: ${reason}\n\nAn administrator can send it with "Retry now" on the Statements page.`,
    });
}

/**
 * "Retry now" (administrators, audited): a failed delivery is due again at once, with a fresh
 * round of attempts; the next run (on any instance) sends it. Null when there is no such
 * delivery; 'not-failed' when it is not failed (a delivered day is never sent twice);
 * 'cancelled' when its subscription was cancelled.
 */
export async function retryDelivery(
  db: Pick<DashboardDb, "tx">,
  actor: Actor,
  subscriptionId: string,
  businessDay: string,
): Promise<StatementDelivery | "not-failed" | "cancelled" | null> {
  return db.tx(async (q) => {
    const rows = await q.query<DeliveryRow>(
      `UPDATE statement_deliveries SET status = 'retrying', attempts = 0, next_attempt_at = NULL,
         failed_at = NULL
       WHERE subscription_id = $1 AND business_day = $2 AND status = 'failed'
         AND EXISTS (SELECT 1 FROM statement_subscriptions s WHERE s.id = $1 AND s.cancelled_at IS NULL)
       RETURNING ${DELIVERY_COLUMNS}`,
      [subscriptionId, businessDay],
    );
    if (!rows.length) {
      const any = await q.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM statement_deliveries WHERE subscription_id = $1 AND business_day = $2`,
        [subscriptionId, businessDay],
      );
      if (!any.length) return null;
      return any[0].status === "failed" ? "cancelled" : "not-failed";
    }
    await appendAudit(q, {
      actorId: actor.id,
      actorEmail: actor.email,
      ip: actor.ip ?? null,
      action: "statement_subscription.retry",
      target: `${subscriptionId}/${businessDay}`,
      result: "ok",
      detail: { businessDay, reason: rows[0].last_error },
    });
    return deliveryFromRow(rows[0]);
  });
}

class ClaimLost extends Error {}
