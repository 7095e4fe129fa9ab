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
// - Fresh notifications (never tried, seconds old) are claimed before the others, so that after
//   an outage a live balance is live again at once while the backlog drains behind it.
// - A receiver that fails gets no first attempts; one of its failed rows is made due now and then
//   (a half-open probe). When it answers 2xx again, all its waiting rows are due at once instead
//   of on their backoff schedule, which after a long outage could be an hour away.
// - Each attempt is written when its row is claimed, before the request goes out (its outcome
//   follows), so that the delivery log shows every attempt, even one a crash cut short.

import { setMaxListeners } from "node:events";
import { signWebhook } from "../../lib/bank-api/webhook-signature.ts";
import type { BalanceNotification } from "../../lib/bank-api/webhooks.ts";
import { WEBHOOK_HEADERS } from "../../lib/bank-api/webhooks.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Bank } from "../context.ts";
import type { customers, outbox, webhooks } from "../db/schema.ts";
import { nextAttemptAt } from "./backoff.ts";
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

/**
 * A claimed notification as claim_outbox returns it (bank/db/functions/outbox.sql): its outbox
 * columns, the customer's signing secret and the webhook's description (null once it is deleted).
 */
type OutboxRow = Pick<
  SqlRow<typeof outbox>,
  "id" | "message_id" | "webhook_id" | "target" | "created_at" | "attempts"
> & {
  channel: "http" | "email";
  payload: BalanceNotification;
  /** The receiver (host and port, lower case) of an http row; null for e-mail. */
  host: SqlRow<typeof outbox>["host"] | null;
  secret: SqlRow<typeof customers>["webhook_secret"];
  description: SqlRow<typeof webhooks>["description"] | null;
};

interface Outcome {
  ok: boolean;
  statusCode?: number;
  error?: string;
  /** Trying again cannot help (refused destination, malformed target): give up now. */
  permanent?: boolean;
  /** No SMTP server: the message goes to the sandbox mail box with the attempt record. */
  sandboxMail?: { to: string; subject: string; text: string };
}

// The claim (claim_outbox, bank/db/functions/outbox.sql): per receiver with a free slot, fresh rows first
// (never tried, written since $4: FRESH_MS ago, or after the last failure of a receiver that has
// just come back, so that its backlog is not fresh), then the longest-waiting; a failing receiver
// ($6) gets retries only, its other rows waiting for a probe's success. Each receiver gets no more
// rows than its free slots ($7 receivers with deliveries in flight, $8 their free slots, $9 for
// any other; $5 those at their limit). Each claimed row gets its attempt written in the same
// statement, before any request goes out. It reads a few index entries per receiver, however long
// the backlog.
const CLAIM = "SELECT * FROM claim_outbox($1, $2, $3, $4, $5::text[], $6::text[], $7::text[], $8::int[], $9)";

// Claimed rows beyond a receiver's limit go back as they were: due, the claim and its attempt
// not counted (no request went out).
const UNCLAIM = `
WITH back AS (
  UPDATE outbox SET next_attempt_at = $2, attempts = attempts - 1, leased = false
  WHERE id = ANY($1::bigint[]) AND state = 'pending'
  RETURNING id, attempts + 1 AS attempt)
DELETE FROM delivery_attempts a USING back
WHERE a.outbox_id = back.id AND a.attempt = back.attempt AND a.ok IS NULL`;

// A receiver answered 2xx again: its waiting rows (not those being sent) are due now.
const RECOVER = `UPDATE outbox SET next_attempt_at = $1
  WHERE state = 'pending' AND attempts > 0 AND host = $2 AND next_attempt_at > $1 AND NOT leased`;

// The half-open probe of a failing receiver: one of its rows that failed is due now (the others
// wait: a failing receiver gets no first attempts).
const PROBE = `UPDATE outbox SET next_attempt_at = $1 WHERE id = (
  SELECT id FROM outbox
  WHERE state = 'pending' AND attempts > 0 AND host = $2 AND NOT leased
  ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)`;

/** Notifications never tried and younger than this are sent before any other. */
export const FRESH_MS = 10_000;
/** After a recovery, rows written since the receiver's last failed request stay fresh this long. */
const RECOVERY_FRESH_MS = 60_000;

/**
 * A failing receiver is probed every PROBE_MS at first, then every 1/60 of the time it has been
 * failing (at most MAX_PROBE_MS): its recovery is seen within about 2% of the outage's length,
 * at the cost of about 60 probes plus one a half-minute however long the outage lasts.
 */
export const PROBE_MS = 1000;
export const MAX_PROBE_MS = 30_000;
const probeWait = (failingForMs: number) => Math.min(MAX_PROBE_MS, Math.max(PROBE_MS, failingForMs / 60));

// Finished attempts are written in batches, one statement each (bank/db/functions/outbox.sql,
// record_outbox_attempts): the attempts, the rows' new states and (without SMTP) the sandbox
// messages.
const RECORD =
  "SELECT record_outbox_attempts($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::int[], $8::int[], $9::boolean[], $10::text[], $11::text[], $12::timestamptz[], $13::text[], $14::text[], $15::text[])";

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

const NEXT_DUE = "SELECT outbox_next_retry() AS t";

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
  const destinations = bank.webhookDestinations;
  const poster = createPoster(concurrency, destinations.lookup);
  const smtp = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom, DELIVERY_TIMEOUT_MS) : null;
  const stopping = new AbortController();
  // Every delivery in flight listens for shutdown on this one signal.
  setMaxListeners(0, stopping.signal);
  const inFlight = new Set<Promise<void>>();
  const perHost = new Map<string, number>();
  const atLimit = () => [...perHost].filter(([, n]) => n >= hostConcurrency).map(([h]) => h);
  /** Receivers whose last answer was a failure: since when, when the last failed request went out (bank clock), and the next probe. */
  const failing = new Map<string, { since: number; last: number; at: number }>();
  /** When each receiver's waiting rows were last made due, so that a drain asks once a second. */
  const recovered = new Map<string, number>();
  /**
   * Receivers back from an outage lately (bank clock): what was written before their last failed
   * request went out is backlog, not fresh, for RECOVERY_FRESH_MS after they came back.
   */
  const backlogBefore = new Map<string, { cutoff: number; at: number }>();
  /**
   * The instant before which a row is not fresh: FRESH_MS ago, or, after a recent recovery, its
   * backlog's end, however long ago, so that a change made after the recovery stays ahead of the
   * backlog until it is sent, even when the recovery was seen late.
   */
  function freshSince(now: number): Date {
    let cutoff: number | null = null;
    for (const [host, b] of backlogBefore) {
      if (b.at < now - RECOVERY_FRESH_MS) backlogBefore.delete(host);
      else cutoff = Math.max(cutoff ?? b.cutoff, b.cutoff);
    }
    return new Date(cutoff ?? now - FRESH_MS);
  }
  let probeTimer: NodeJS.Timeout | undefined;
  let running = true;
  let pumping: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  /**
   * When to look for due retries again (bank clock): the earliest known from the last look (at
   * most pollMs ahead) and the retries written since; null when unknown. Other instances'
   * retries and expired leases are seen within pollMs.
   */
  let nextRetryAt: number | null = null;

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
          const busy = [...perHost].filter(([, n]) => n < hostConcurrency);
          const rows = await db.prepared<OutboxRow>("claim_outbox", CLAIM, [
            now,
            free,
            new Date(now.getTime() + leaseMs),
            freshSince(now.getTime()),
            atLimit(),
            [...failing.keys()],
            busy.map(([h]) => h),
            busy.map(([, n]) => hostConcurrency - n),
            hostConcurrency,
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
      const nowMs = clock.now().getTime();
      // The earliest retry known to be ahead stands until then: no need to ask at every claim.
      if (nextRetryAt !== null && nextRetryAt > nowMs) return wakeIn(nextRetryAt - nowMs);
      const next = await db.prepared<{ t: Date | string | null }>("outbox_next_retry", NEXT_DUE, []);
      const t = next[0]?.t;
      // Rows due already but not claimed belong to receivers at their limit (a finishing delivery
      // kicks) or failing (probed): look again soon, without spinning on the database.
      const wait = t ? Math.max(new Date(t).getTime() - clock.now().getTime(), 50) : pollMs;
      nextRetryAt = clock.now().getTime() + wait;
      wakeIn(wait);
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
        await db.prepared("record_outbox_attempts", RECORD, columns);
      } catch (e) {
        // The rows stay leased and come back when the lease ends: delivered again, never lost.
        log.error("webhook dispatcher: cannot record attempts", { count: batch.length, err: e });
      }
    }
  }

  async function deliver(row: OutboxRow) {
    const started = performance.now();
    const sentAt = clock.now().getTime();
    let outcome: Outcome;
    try {
      outcome = await attempt(row);
    } catch (e) {
      outcome = { ok: false, error: (e as Error).message ?? "error" };
    }
    // Cut short by shutdown: the request may have reached the receiver, so the attempt stays in the
    // log with an unknown outcome and the notification is due again at once for the next run.
    if (stopping.signal.aborted)
      outcome = { ok: false, error: "interrupted by shutdown before an answer (it may have been received)" };
    else noteOutcome(row, outcome, sentAt);
    if (!outcome.ok) bank.metrics.deliveryFailed(row.channel, row.host ?? "");
    const now = clock.now();
    const retryAt =
      outcome.ok || outcome.permanent
        ? null
        : stopping.signal.aborted
          ? now
          : nextAttemptAt(new Date(row.created_at), now, row.attempts, config.webhookRetryBaseMs);
    const state = outcome.ok ? "delivered" : retryAt ? "pending" : "failed";
    if (retryAt && nextRetryAt !== null) nextRetryAt = Math.min(nextRetryAt, retryAt.getTime());
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

  /** `sentAt`: when the attempt's request went out (bank clock); rows written since may be newer than a recovery. */
  function noteOutcome(row: OutboxRow, outcome: Outcome, sentAt: number) {
    const host = row.host;
    if (host === null || outcome.permanent) return;
    if (!outcome.ok) {
      const f = failing.get(host);
      if (f) f.last = Math.max(f.last, sentAt);
      else failing.set(host, { since: Date.now(), last: sentAt, at: Date.now() + PROBE_MS });
      if (!probeTimer) {
        probeTimer = setInterval(probe, PROBE_MS);
        probeTimer.unref();
      }
      return;
    }
    // A success after failures (seen here, or by an earlier claimant: a retried row) ends the outage.
    const outage = failing.get(host);
    if (outage) {
      failing.delete(host);
      backlogBefore.set(host, { cutoff: outage.last, at: clock.now().getTime() });
    } else if (row.attempts <= 1) return;
    const last = recovered.get(host) ?? 0;
    if (Date.now() - last < PROBE_MS) return;
    recovered.set(host, Date.now());
    db.query(RECOVER, [clock.now(), host])
      .then(() => kick())
      .catch((e) =>
        log.error("webhook dispatcher: cannot make a recovered receiver's notifications due", { err: e }),
      );
  }

  async function probe() {
    if (!running || !failing.size) {
      clearInterval(probeTimer);
      probeTimer = undefined;
      return;
    }
    for (const [host, next] of [...failing]) {
      // Not yet. (A delivery under way does not stand in for the probe: it may hang for long.)
      if (next.at > Date.now()) continue;
      next.at = Date.now() + probeWait(Date.now() - next.since);
      try {
        const r = await db.query<{ id: number }>(`${PROBE} RETURNING id`, [clock.now(), host]);
        if (!r.length) failing.delete(host); // nothing waits for it any more
      } catch (e) {
        if (running) log.error("webhook dispatcher: cannot probe a receiver", { err: e });
      }
    }
    kick();
  }

  const onEvent = () => kick();
  const onClock = () => {
    nextRetryAt = null;
    kick();
  };
  bank.events.on("balance-changed", onEvent);
  bank.events.on("clock-advanced", onClock);
  const unlisten = await db.listen("bank_outbox", onEvent);

  bank.onClose(async () => {
    running = false;
    clearTimeout(timer);
    clearInterval(probeTimer);
    bank.events.off("balance-changed", onEvent);
    bank.events.off("clock-advanced", onClock);
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
