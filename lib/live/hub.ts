// Live balances (docs/decisions.md, "Live balances"): every notification the receiver accepts is
// stored once (by webhook-id) with the alerts it fired, then fanned out to every dashboard
// instance — PostgreSQL LISTEN/NOTIFY when the dashboard database is a server, in-process on
// PGlite (one process owns that database). Browsers resume from the stored rows with Last-Event-ID.
import "server-only";
import { EventEmitter } from "node:events";
import pg from "pg";
import { evaluateAlerts, type FiredAlert } from "../alerts/evaluate.ts";
import { sendAlertMail } from "../alerts/mail.ts";
import type { BankClient } from "../bank-client/client.ts";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { type DashboardDb, getDashboardDb, type Queryable } from "../db/client.ts";
import type { liveEvents } from "../db/schema.ts";
import { PG_TYPES } from "../server/db-types.ts";
import { createLogger } from "../server/log.ts";
import { processSingleton } from "../server/process-singleton.ts";
import type { SqlRow } from "../server/sql-row.ts";

const log = createLogger("live");

export const LIVE_CHANNEL = "treasury_live";
/** A resume asking for more than this many events is told to re-read everything instead. */
export const REPLAY_LIMIT = 1000;
/**
 * Held from an event's seq to its commit: events then commit in seq order on every instance, so
 * a reader that has seen seq N has seen every event below it, and a resume from Last-Event-ID N
 * (or an instance's catch-up after a lost LISTEN) can never skip an event committed later with a
 * smaller seq.
 */
export const LIVE_ORDER_LOCK = 72420005;
/** Stored events (and the alerts and read marks that hang on them) are kept this long. */
const KEEP_DAYS = 90;

export interface AlertSummary {
  id: number;
  kind: "below" | "above";
  thresholdCents: number;
  /** Whether signed-in users are told (a toast and the panel); e-mail-only rules say false. */
  notifyUsers: boolean;
}

export interface LiveEvent {
  /** Position in the store: the SSE id a browser resumes from. */
  seq: number;
  accountNumber: string;
  availableCents: number;
  previousCents: number;
  at: string;
  alerts: AlertSummary[];
}

export interface Notification {
  /** The notification's webhook-id: the same across the bank's retries. */
  webhookId: string;
  accountNumber: string;
  availableCents: number;
  previousCents: number;
}

type EventRow = Pick<
  SqlRow<typeof liveEvents>,
  "seq" | "account_number" | "available_cents" | "previous_cents" | "received_at"
> & { alerts: AlertSummary[] };

const EVENT_SELECT = `
  SELECT e.seq, e.account_number, e.available_cents, e.previous_cents, e.received_at,
         COALESCE((SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind,
                     'thresholdCents', a.threshold_cents, 'notifyUsers', a.notify_users) ORDER BY a.id)
                   FROM alerts a WHERE a.event_seq = e.seq), '[]'::json) AS alerts
  FROM live_events e`;

export function toLiveEvent(r: EventRow): LiveEvent {
  return {
    seq: r.seq,
    accountNumber: r.account_number,
    availableCents: r.available_cents,
    previousCents: r.previous_cents,
    at: r.received_at.toISOString(),
    alerts: r.alerts,
  };
}

export class LiveHub {
  private readonly emitter = new EventEmitter();
  private lastSeq = 0;
  private readonly recent = new Set<number>();
  private listener: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private ready: Promise<void> | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly db: DashboardDb,
    private readonly opts: {
      listenUrl?: string;
      smtpUrl?: string;
      mailFrom?: string;
      /** Names the account in alert e-mail. */
      getBank?: () => Promise<BankClient>;
    } = {},
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Starts listening (PostgreSQL); resolves once the first LISTEN is in place. */
  start(): Promise<void> {
    if (!this.ready) {
      this.ready = (async () => {
        this.lastSeq = Math.max(this.lastSeq, await this.latestSeq());
        if (this.opts.listenUrl) await this.listen();
        await this.prune();
        this.pruneTimer = setInterval(() => void this.prune(), 86_400_000);
        this.pruneTimer.unref();
      })();
    }
    return this.ready;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.listenUrl, types: PG_TYPES });
    const retry = () => {
      if (this.closed || this.listener !== client) return;
      this.listener = null;
      client.end().catch(() => {});
      this.retryTimer = setTimeout(() => {
        this.listen().catch((err) => {
          log.warn("live updates: LISTEN failed, trying again", { err: String(err) });
          retry();
        });
      }, 1000);
    };
    this.listener = client;
    client.on("error", (err) => {
      log.warn("live updates: LISTEN connection lost", { err: err.message });
      retry();
    });
    client.on("end", retry);
    client.on("notification", (m) => {
      if (m.channel !== LIVE_CHANNEL || !m.payload) return;
      try {
        this.deliver(JSON.parse(m.payload) as LiveEvent);
      } catch (err) {
        log.warn("live updates: unreadable notification", { err: String(err) });
      }
    });
    await client.connect();
    await client.query(`LISTEN ${LIVE_CHANNEL}`);
    // What was stored while this instance was not listening reaches its browsers now.
    for (const e of await this.since(this.lastSeq)) this.deliver(e);
  }

  private async prune(): Promise<void> {
    await this.db
      .query(`DELETE FROM live_events WHERE received_at < now() - make_interval(days => ${KEEP_DAYS})`)
      .catch((err) => log.warn("old live events could not be pruned", { err: String(err) }));
  }

  private deliver(e: LiveEvent): void {
    // A catch-up after a reconnect may overlap what NOTIFY brings: each event goes out once.
    if (this.recent.has(e.seq)) return;
    this.recent.add(e.seq);
    if (this.recent.size > 10_000) this.recent.delete(this.recent.values().next().value as number);
    if (e.seq > this.lastSeq) this.lastSeq = e.seq;
    this.emitter.emit("event", e);
  }

  /**
   * Stores a notification once, evaluates the account's alert rule in the same transaction and
   * fans the event out. Returns null for a repeat of a stored webhook-id (nothing happens again).
   */
  async record(n: Notification): Promise<LiveEvent | null> {
    const out = await this.db.tx(async (q) => {
      if (this.db.kind === "pg") await q.query("SELECT pg_advisory_xact_lock($1)", [LIVE_ORDER_LOCK]);
      const [row] = await q.query<Pick<EventRow, "seq" | "received_at">>(
        `INSERT INTO live_events (webhook_id, account_number, available_cents, previous_cents)
         VALUES ($1, $2, $3, $4) ON CONFLICT (webhook_id) DO NOTHING RETURNING seq, received_at`,
        [n.webhookId, n.accountNumber, n.availableCents, n.previousCents],
      );
      if (!row) return null;
      const seq = row.seq;
      const fired = await evaluateAlerts(q, { seq, ...n });
      const event: LiveEvent = {
        seq,
        accountNumber: n.accountNumber,
        availableCents: n.availableCents,
        previousCents: n.previousCents,
        at: row.received_at.toISOString(),
        alerts: fired.map(({ emails: _, ...a }) => a),
      };
      // Delivered to every listening instance (this one included) when the transaction commits.
      if (this.db.kind === "pg") await notify(q, event);
      return { event, fired };
    });
    if (!out) return null;
    if (this.db.kind !== "pg") this.deliver(out.event);
    void this.mail(out.event, out.fired);
    return out.event;
  }

  private async mail(e: LiveEvent, fired: FiredAlert[]): Promise<void> {
    if (!this.opts.smtpUrl) return;
    const toSend = fired.filter((a) => a.emails.trim());
    if (!toSend.length) return;
    const accountName = await this.accountName(e.accountNumber);
    for (const a of toSend) {
      try {
        await sendAlertMail(
          { smtpUrl: this.opts.smtpUrl, from: this.opts.mailFrom },
          { ...a, accountNumber: e.accountNumber, accountName, availableCents: e.availableCents, at: e.at },
        );
        await this.db.query("UPDATE alerts SET emailed_at = now() WHERE id = $1", [a.id]);
      } catch (err) {
        log.warn("alert e-mail could not be sent", { alert: a.id, err: String(err) });
      }
    }
  }

  /** The account's name at the bank; undefined when it cannot be read (the mail still goes). */
  private async accountName(accountNumber: string): Promise<string | undefined> {
    if (!this.opts.getBank) return undefined;
    try {
      const r = await (await this.opts.getBank()).call("accountList");
      if (!r.ok) return undefined;
      const a = r.data.ResponseData.flatMap((d) => d.CUSTACCT).find((x) => x.ACTNBR === accountNumber);
      return a?.SHORTNAME || undefined;
    } catch (err) {
      log.warn("alert e-mail: the account's name could not be read", { err: String(err) });
      return undefined;
    }
  }

  /** Stored events after seq, oldest first (at most `limit`). */
  async since(seq: number, limit = REPLAY_LIMIT + 1): Promise<LiveEvent[]> {
    const rows = await this.db.query<EventRow>(`${EVENT_SELECT} WHERE e.seq > $1 ORDER BY e.seq LIMIT $2`, [
      seq,
      limit,
    ]);
    return rows.map(toLiveEvent);
  }

  async latestSeq(): Promise<number> {
    const [r] = await this.db.query<{ m: number }>("SELECT COALESCE(max(seq), 0) AS m FROM live_events");
    return r.m;
  }

  subscribe(fn: (e: LiveEvent) => void): () => void {
    this.emitter.on("event", fn);
    return () => this.emitter.off("event", fn);
  }

  listenerCount(): number {
    return this.emitter.listenerCount("event");
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => {});
  }
}

async function notify(q: Queryable, e: LiveEvent): Promise<void> {
  await q.query("SELECT pg_notify($1, $2)", [LIVE_CHANNEL, JSON.stringify(e)]);
}

// One hub per process, kept on globalThis: route bundles may load this module more than once.
const held = processSingleton<LiveHub>("treasury.liveHub", async () => {
  const db = await getDashboardDb();
  const hub = new LiveHub(db, {
    listenUrl: db.kind === "pg" ? config().databaseUrl : undefined,
    smtpUrl: config().smtpUrl,
    mailFrom: config().mailFrom,
    getBank: config().bankApiUrl && config().bankSubscriptionKey ? getBankClient : undefined,
  });
  await hub.start();
  return hub;
});

export const getLiveHub = held.get;

/** The hub if this process has started it, without starting it. */
export const startedLiveHub = held.peek;

/** Tests: use this hub (or none) instead of one built from the environment. */
export const setLiveHub = held.set;
