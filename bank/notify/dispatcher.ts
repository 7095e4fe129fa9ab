// The outbox dispatcher (docs/architecture.md, "Growing past one machine"): notifications are written to
// the outbox in the same transaction as the balance change; this worker claims the due ones and
// delivers them by HTTP POST or e-mail, recording every attempt.
//
// - Woken by NOTIFY bank_outbox (any instance's commits), bank.events (this process) and a timer
//   set to the next due row (at most `pollMs` away), so a retry or a missed NOTIFY is never stuck.
// - Claiming is one statement, `FOR UPDATE SKIP LOCKED` plus a lease: the claimed rows get
//   next_attempt_at = now + lease, so instances never share a row, and a row claimed by a process
//   that died becomes due again when the lease runs out. Delivery is therefore at-least-once;
//   receivers drop repeats by `webhook-id`.
// - At most `concurrency` deliveries run at once, and at most `hostConcurrency` to one receiver
//   (host and port): a slow receiver cannot hold every slot while the others' notifications wait.
//   Its due rows stay unclaimed until one of its deliveries ends.

import { setMaxListeners } from "node:events";
import { signWebhook } from "../../lib/bank-api/webhook-signature.ts";
import type { BalanceNotification } from "../../lib/bank-api/webhooks.ts";
import { WEBHOOK_HEADERS } from "../../lib/bank-api/webhooks.ts";
import type { Bank } from "../context.ts";
import { nextAttemptAt } from "./backoff.ts";
import { createDestinationCheck } from "./destination.ts";
import { createPoster, DELIVERY_TIMEOUT_MS } from "./http-post.ts";
import { balanceChangeMail, createSmtpMailer } from "./mail.ts";

export interface DispatcherOptions {
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Deliveries in flight at once to one receiver (host and port of the URL). */
  hostConcurrency?: number;
  /** Longest sleep between two looks at the outbox. */
  pollMs?: number;
  /** How long a claimed row belongs to its claimant; longer than any attempt can take. */
  leaseMs?: number;
}

interface OutboxRow {
  id: number;
  message_id: string;
  webhook_id: string;
  channel: "http" | "email";
  target: string;
  payload: BalanceNotification;
  created_at: Date | string;
  attempts: number;
  secret: string;
  description: string | null;
  /** The receiver (host and port, lower case) of an http row; null for e-mail. */
  host: string | null;
}

interface Outcome {
  ok: boolean;
  statusCode?: number;
  error?: string;
  /** Trying again cannot help (refused destination, malformed target): give up now. */
  permanent?: boolean;
  /** No SMTP server: the message goes to the sandbox mail box with the attempt record. */
  sandboxMail?: { to: string; subject: string; text: string };
}

// The receiver of an http row: the URL's authority without user info, lower case. Rows of
// receivers that are at their limit ($4) are left for later.
const HOST = `CASE WHEN o.channel = 'http'
  THEN lower(substring(o.target from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]+)')) END`;

const CLAIM = `
WITH due AS (
  SELECT id FROM outbox o
  WHERE state = 'pending' AND next_attempt_at <= $1
    AND NOT coalesce(${HOST} = ANY($4::text[]), false)
  ORDER BY next_attempt_at -- exactly the index (state, next_attempt_at): no sort of the whole outbox
  LIMIT $2
  FOR UPDATE SKIP LOCKED)
UPDATE outbox o SET next_attempt_at = $3, attempts = o.attempts + 1
FROM due WHERE o.id = due.id
RETURNING o.id, o.message_id, o.webhook_id, o.channel, o.target, o.payload, o.created_at, o.attempts,
  (SELECT c.webhook_secret FROM customers c WHERE c.id = o.customer_id) AS secret,
  (SELECT w.description FROM webhooks w WHERE w.id = o.webhook_id) AS description,
  ${HOST} AS host`;

// Claimed rows beyond a receiver's limit go back as they were: due, the claim not counted.
const UNCLAIM = `UPDATE outbox SET next_attempt_at = $2, attempts = attempts - 1
  WHERE id = ANY($1::bigint[]) AND state = 'pending'`;

// Finished attempts are written in batches, one statement each: the attempts, the rows' new
// states and (without SMTP) the sandbox messages. `attempts = i.attempt` keeps a late answer from
// overwriting a row that another claimant has retaken; a failure never reopens a row given up
// meanwhile (its webhook deleted).
const RECORD = `
WITH i AS (
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[],
    $7::int[], $8::int[], $9::boolean[], $10::text[], $11::text[], $12::timestamptz[], $13::text[],
    $14::text[], $15::text[])
  AS t(id, message_id, channel, target, attempt, at, duration_ms, status_code, ok, error, state, retry_at,
    mail_to, mail_subject, mail_text)),
mail AS (
  INSERT INTO sandbox_mail ("to", subject, text, message_id, at)
  SELECT mail_to, mail_subject, mail_text, message_id, at FROM i WHERE mail_to IS NOT NULL),
attempt AS (
  INSERT INTO delivery_attempts (outbox_id, message_id, channel, target, attempt, at, duration_ms, status_code, ok, error)
  SELECT id, message_id, channel, target, attempt, at, duration_ms, status_code, ok, error FROM i)
UPDATE outbox o SET state = i.state, next_attempt_at = coalesce(i.retry_at, o.next_attempt_at),
  last_error = i.error, delivered_at = CASE WHEN i.ok THEN i.at END
FROM i WHERE o.id = i.id AND o.attempts = i.attempt AND (o.state = 'pending' OR i.ok)`;

/** One finished attempt waiting to be written, in RECORD's column order. */
type AttemptRecord = [
  id: number,
  messageId: string,
  channel: string,
  target: string,
  attempt: number,
  at: string,
  durationMs: number,
  statusCode: number | null,
  ok: boolean,
  error: string | null,
  state: string,
  retryAt: string | null,
  mailTo: string | null,
  mailSubject: string | null,
  mailText: string | null,
];
const RECORD_BATCH = 500;
const RECORD_DELAY_MS = 10;

const NEXT_DUE = `SELECT min(next_attempt_at) AS t FROM outbox WHERE state = 'pending'`;

/** The notification body, fields in the documented order (jsonb does not keep key order). */
export function notificationBody(p: BalanceNotification): string {
  return JSON.stringify({
    AccountNumber: p.AccountNumber,
    AvailableBalance: p.AvailableBalance,
    PreviousBalance: p.PreviousBalance,
  });
}

export async function startDispatcher(bank: Bank, opts: DispatcherOptions = {}) {
  const concurrency = opts.concurrency ?? bank.config.webhookConcurrency ?? 64;
  const hostConcurrency = opts.hostConcurrency ?? bank.config.webhookHostConcurrency ?? 32;
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 2 * DELIVERY_TIMEOUT_MS;
  const { config, db, clock, log } = bank;
  const destinations = createDestinationCheck({ sandbox: config.sandbox, allow: config.webhookAllow });
  const poster = createPoster(concurrency);
  const smtp = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom, DELIVERY_TIMEOUT_MS) : null;
  const stopping = new AbortController();
  // Every delivery in flight listens for shutdown on this one signal.
  setMaxListeners(0, stopping.signal);
  const inFlight = new Set<Promise<void>>();
  const perHost = new Map<string, number>();
  const atLimit = () => [...perHost].filter(([, n]) => n >= hostConcurrency).map(([h]) => h);
  let running = true;
  let pumping: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  function kick() {
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump().finally(() => {
      pumping = null;
      if (again) kick();
    });
  }

  function wakeIn(ms: number) {
    clearTimeout(timer);
    if (!running) return;
    timer = setTimeout(kick, Math.max(0, Math.min(ms, pollMs)));
    timer.unref();
  }

  async function pump() {
    try {
      let drained = false;
      do {
        again = false;
        drained = false;
        while (running) {
          const free = concurrency - inFlight.size;
          if (free <= 0) break; // a finishing delivery kicks again
          const now = clock.now();
          const rows = await db.query<OutboxRow>(CLAIM, [
            now,
            free,
            new Date(now.getTime() + leaseMs),
            atLimit(),
          ]);
          const over: OutboxRow[] = [];
          for (const row of rows) {
            if (row.host !== null) {
              const n = perHost.get(row.host) ?? 0;
              if (n >= hostConcurrency) {
                over.push(row);
                continue;
              }
              perHost.set(row.host, n + 1);
            }
            track(deliver(row), row.host);
          }
          if (over.length) {
            await db.query(UNCLAIM, [over.map((r) => r.id), now]);
            // The receiver is at its limit now: the next claim passes its rows by.
            continue;
          }
          if (rows.length < free) {
            drained = true;
            break;
          }
        }
      } while (again && running);
      if (!running) return;
      if (!drained) return wakeIn(pollMs);
      const next = await db.query<{ t: Date | string | null }>(NEXT_DUE);
      const t = next[0]?.t;
      wakeIn(t ? new Date(t).getTime() - clock.now().getTime() : pollMs);
    } catch (e) {
      if (running) log.error("webhook dispatcher: cannot read the outbox", { err: e });
      wakeIn(pollMs);
    }
  }

  function track(p: Promise<void>, host: string | null) {
    inFlight.add(p);
    p.finally(() => {
      inFlight.delete(p);
      if (host !== null) {
        const n = (perHost.get(host) ?? 1) - 1;
        if (n > 0) perHost.set(host, n);
        else perHost.delete(host);
      }
      // Claim again once the attempt is written: the write kicks when it ends.
      if (!flushing && !flushTimer) kick();
    });
  }

  async function attempt(row: OutboxRow): Promise<Outcome> {
    if (row.channel === "http") {
      let url: URL;
      try {
        url = new URL(row.target);
      } catch {
        return { ok: false, permanent: true, error: "malformed URL" };
      }
      const dest = await destinations.resolve(url);
      if (!dest.ok) return { ok: false, permanent: true, error: dest.reason };
      const body = notificationBody(row.payload);
      // Wall-clock time, not the bank's (movable) clock: receivers check it against their own
      // clock to refuse replays, and a sandbox clock moved forward must not make them refuse.
      const timestamp = Math.floor(Date.now() / 1000);
      const r = await poster.post(
        url,
        body,
        {
          [WEBHOOK_HEADERS.id]: row.message_id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signWebhook(row.secret, row.message_id, timestamp, body),
        },
        { address: dest.address, signal: stopping.signal },
      );
      if (r.error) return { ok: false, error: r.error };
      const ok = r.statusCode !== undefined && r.statusCode >= 200 && r.statusCode < 300;
      return { ok, statusCode: r.statusCode, error: ok ? undefined : `HTTP ${r.statusCode}` };
    }
    const mail = balanceChangeMail(row.payload, row.target, {
      description: row.description ?? undefined,
      at: new Date(row.created_at),
      timeZone: clock.timeZone,
    });
    if (!mail.to.length) return { ok: false, permanent: true, error: "no e-mail address" };
    if (!smtp)
      return { ok: true, sandboxMail: { to: mail.to.join(", "), subject: mail.subject, text: mail.text } };
    try {
      await smtp.send(mail, row.message_id);
      return { ok: true };
    } catch (e) {
      const err = e as { code?: string; responseCode?: number; message?: string };
      return {
        ok: false,
        statusCode: err.responseCode,
        error: `${err.code ?? "SMTP"}: ${err.message ?? "error"}`,
      };
    }
  }

  const unrecorded: AttemptRecord[] = [];
  let flushing: Promise<void> | null = null;
  let flushTimer: NodeJS.Timeout | undefined;

  /**
   * Queues a finished attempt. Attempts finishing within RECORD_DELAY_MS of each other are
   * written together, and the next claim follows the write: under load a few statements carry
   * many deliveries (on the embedded database every statement holds the one connection).
   */
  function record(r: AttemptRecord) {
    unrecorded.push(r);
    scheduleFlush();
  }

  function scheduleFlush() {
    if (flushing || flushTimer) return;
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      flushing = flush().finally(() => {
        flushing = null;
        if (unrecorded.length) scheduleFlush();
        kick();
      });
    }, RECORD_DELAY_MS);
  }

  async function flush() {
    while (unrecorded.length) {
      const batch = unrecorded.splice(0, RECORD_BATCH);
      const columns = batch[0].map((_, c) => batch.map((r) => r[c]));
      try {
        await db.query(RECORD, columns);
      } catch (e) {
        // The rows stay leased and come back when the lease ends: delivered again, never lost.
        log.error("webhook dispatcher: cannot record attempts", { count: batch.length, err: e });
      }
    }
  }

  async function deliver(row: OutboxRow) {
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await attempt(row);
    } catch (e) {
      outcome = { ok: false, error: (e as Error).message ?? "error" };
    }
    // A delivery cut short by shutdown is not an attempt: the lease brings the row back.
    if (stopping.signal.aborted) return;
    const now = clock.now();
    const retryAt =
      outcome.ok || outcome.permanent
        ? null
        : nextAttemptAt(new Date(row.created_at), now, row.attempts, config.webhookRetryBaseMs);
    const state = outcome.ok ? "delivered" : retryAt ? "pending" : "failed";
    // Receivers' and mail servers' words are stored as text: no control characters (PostgreSQL
    // text refuses NUL, and one bad row would fail its whole batch).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    const error = outcome.error ? outcome.error.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 500) : null;
    record([
      row.id,
      row.message_id,
      row.channel,
      row.target,
      row.attempts,
      now.toISOString(),
      Math.round(performance.now() - started),
      outcome.statusCode ?? null,
      outcome.ok,
      error,
      state,
      retryAt ? retryAt.toISOString() : null,
      outcome.sandboxMail?.to ?? null,
      outcome.sandboxMail?.subject ?? null,
      outcome.sandboxMail?.text ?? null,
    ]);
    if (state === "failed") {
      log.warn("webhook notification given up", {
        messageId: row.message_id,
        webhookId: row.webhook_id,
        channel: row.channel,
        attempts: row.attempts,
        error,
      });
    }
  }

  const onEvent = () => kick();
  bank.events.on("balance-changed", onEvent);
  bank.events.on("clock-advanced", onEvent);
  const unlisten = await db.listen("bank_outbox", onEvent);

  bank.onClose(async () => {
    running = false;
    clearTimeout(timer);
    bank.events.off("balance-changed", onEvent);
    bank.events.off("clock-advanced", onEvent);
    stopping.abort();
    smtp?.close();
    await unlisten().catch(() => {});
    await pumping?.catch(() => {});
    await Promise.allSettled([...inFlight]);
    await flushing;
    if (flushTimer) {
      clearTimeout(flushTimer);
      flushTimer = undefined;
      await flush();
    }
    poster.close();
  });

  // Resume what a previous run left: due rows and rows whose claimant is gone.
  kick();
  return { kick };
}
