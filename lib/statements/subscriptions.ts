// Statement subscriptions: "each business day at 07:00 (the bank's time zone and clock), the
// prior-day BAI2 of these accounts", e-mailed as an attachment through the dashboard's outbox
// (DASHBOARD_SMTP_URL) and kept 90 days for the Statements page.
//
// Exactly once per subscription and business day across instances and restarts: the delivery row,
// keyed by both, is the claim (the instance whose INSERT wins builds the file; a claim whose run
// died is taken over after its lease, as scheduled payments' occurrences are), and the file, the
// row's 'delivered' and the e-mail are written in one transaction that holds only while the claim
// is still this run's: two runs never both queue the message.
import { randomUUID } from "node:crypto";
import type { Actor } from "../auth/audit.ts";
import { appendAudit } from "../auth/audit.ts";
import { addBusinessDays, isBusinessDay } from "../bank-api/business-days.ts";
import { addDays, businessDayFormatter } from "../bank-api/dates.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { queueMail } from "../inbox/mail-outbox.ts";
import { ownedAccounts, prepareStatement } from "./export.ts";

/** The hour (bank's time zone) from which a business day's delivery is due. */
export const DELIVERY_HOUR = 7;
/** Delivered files stay this many days. */
export const KEEP_DAYS = 90;
/** A claim older than this (its run died) is taken over. */
const LEASE_SECONDS = 300;

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

export interface StatementDelivery {
  subscriptionId: string;
  businessDay: string;
  fromDay: string;
  toDay: string;
  fileName: string;
  deliveredAt: string;
}

interface SubscriptionRow {
  id: string;
  name: string;
  accounts: string[];
  recipients: string[];
  starts_on: string;
  created_by: string;
  created_at: Date | string;
  cancelled_at: Date | string | null;
}

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

/** The delivered files still kept, newest first. */
export async function listDeliveries(db: Queryable): Promise<StatementDelivery[]> {
  const rows = await db.query<{
    subscription_id: string;
    business_day: string;
    from_day: string;
    to_day: string;
    file_name: string;
    delivered_at: Date | string;
  }>(
    `SELECT subscription_id, business_day, from_day, to_day, file_name, delivered_at
     FROM statement_deliveries WHERE status = 'delivered'
     ORDER BY business_day DESC, delivered_at DESC LIMIT 1000`,
  );
  return rows.map((r) => ({
    subscriptionId: r.subscription_id,
    businessDay: r.business_day,
    fromDay: r.from_day,
    toDay: r.to_day,
    fileName: r.file_name,
    deliveredAt: iso(r.delivered_at) as string,
  }));
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

/** Claims a subscription's delivery of a business day: true when this run holds it now. */
async function claim(
  db: Queryable,
  subscriptionId: string,
  slot: { businessDay: string; from: string; to: string },
  token: string,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO statement_deliveries (subscription_id, business_day, from_day, to_day, status, claim_token)
     VALUES ($1, $2, $3, $4, 'claimed', $5)
     ON CONFLICT (subscription_id, business_day) DO UPDATE
       SET claim_token = EXCLUDED.claim_token, claimed_at = now(), attempts = statement_deliveries.attempts + 1
       WHERE statement_deliveries.status = 'claimed'
         AND statement_deliveries.claimed_at < now() - make_interval(secs => $6)
     RETURNING 1`,
    [subscriptionId, slot.businessDay, slot.from, slot.to, token, LEASE_SECONDS],
  );
  return rows.length > 0;
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
  /** The business day whose 07:00 delivery was due, or null. */
  businessDay: string | null;
  delivered: number;
  failed: number;
}

/**
 * One run at the bank's `now`: each active subscription's due delivery claimed, built, stored and
 * queued for e-mail once; files older than 90 days removed. Safe on every instance at once.
 */
export async function runStatementSubscriptions(
  db: DashboardDb,
  bank: BankClient,
  o: { timeZone: string; now?: Date },
): Promise<SubscriptionRunOutcome> {
  if (!o.now && !(await bank.learnBankTime({ fresh: true })))
    return { businessDay: null, delivered: 0, failed: 0 };
  const now = o.now ?? bankNow();
  const today = businessDayFormatter(o.timeZone)(now);
  await db.query("DELETE FROM statement_deliveries WHERE business_day < $1", [addDays(today, -KEEP_DAYS)]);
  const slot = dueDelivery(now, o.timeZone);
  if (!slot) return { businessDay: null, delivered: 0, failed: 0 };
  const subs = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM statement_subscriptions
     WHERE cancelled_at IS NULL AND starts_on <= $1
       AND NOT EXISTS (SELECT 1 FROM statement_deliveries d
                       WHERE d.subscription_id = statement_subscriptions.id AND d.business_day = $1
                         AND d.status = 'delivered')`,
    [slot.businessDay],
  );
  let delivered = 0;
  let failed = 0;
  for (const s of subs) {
    const token = randomUUID();
    if (!(await claim(db, s.id, slot, token))) continue;
    try {
      const names = await ownedAccounts(bank, s.accounts);
      const prepared = await prepareStatement(
        bank,
        "bai2",
        { accounts: s.accounts, from: slot.from, to: slot.to },
        { names, timeZone: o.timeZone },
      );
      const content = await readAll(prepared.body);
      const done = await db.tx(async (q) => {
        const mailId = await queueMail(q, {
          to: s.recipients.join(","),
          subject: `BAI2 statement ${slot.from === slot.to ? slot.to : `${slot.from} to ${slot.to}`}: ${s.name}`,
          text:
            `The prior-day BAI2 statement of ${s.accounts.join(", ")} (${slot.from} to ${slot.to}), ` +
            `from the subscription "${s.name}". It is attached, and kept ${KEEP_DAYS} days on the Statements page.`,
          kind: "statement",
          attachment: { name: prepared.fileName, type: "text/plain", content },
        });
        const rows = await q.query(
          `UPDATE statement_deliveries SET status = 'delivered', file_name = $4, content = $5, mail_id = $6,
             delivered_at = now(), claim_token = NULL, last_error = NULL
           WHERE subscription_id = $1 AND business_day = $2 AND claim_token = $3 AND status = 'claimed'
           RETURNING 1`,
          [s.id, slot.businessDay, token, prepared.fileName, content, mailId],
        );
        // The claim was taken over meanwhile: the other run delivers; this message is not queued.
        if (!rows.length) throw new ClaimLost();
        return true;
      });
      if (done) delivered++;
    } catch (err) {
      if (err instanceof ClaimLost) continue;
      failed++;
      // Left claimed: the lease ends and a later run (on any instance) tries again.
      await db.query(
        `UPDATE statement_deliveries SET last_error = $4
         WHERE subscription_id = $1 AND business_day = $2 AND claim_token = $3`,
        [s.id, slot.businessDay, token, String(err).slice(0, 500)],
      );
    }
  }
  return { businessDay: slot.businessDay, delivered, failed };
}

class ClaimLost extends Error {}
