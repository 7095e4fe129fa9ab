// The bank's Prometheus metrics (GET /metrics): requests by route and status with their latency,
// SEN transfers and the sizes of their group commits, the outbox's depth and the age of its oldest
// undelivered notification (read from the database at scrape time, one small query), and
// delivery failures by receiver. BANK_METRICS=off turns every one of them into nothing at all, so
// that their cost can be measured (bench/bank.bench.ts).
import { client, type HttpMetrics, httpMetrics } from "../lib/server/metrics.ts";
import type { Clock } from "./clock.ts";
import type { Queryable } from "./db/client.ts";

export interface BankMetrics {
  /** The registry a scrape reads; absent when metrics are off. */
  registry?: client.Registry;
  http: HttpMetrics;
  /** A SEN transfer decided: `ok` or the business code that refused it. */
  transfer(outcome: string): void;
  /** A group commit of `size` transfers (1 when one went alone). */
  batch(size: number): void;
  /** A webhook or e-mail delivery that failed; the receiver is host:port, '' for e-mail. */
  deliveryFailed(channel: string, receiver: string): void;
}

const NONE: BankMetrics = {
  http: { observe() {} },
  transfer() {},
  batch() {},
  deliveryFailed() {},
};

export function createBankMetrics(enabled: boolean, db: Queryable, clock: Clock): BankMetrics {
  if (!enabled) return NONE;
  // One registry per bank: tests run several banks in one process.
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "bank_" });
  const http = httpMetrics(registry, "bank");
  // Counted in a plain map and read at scrape time: every transfer passes here.
  const decided = new Map<string, number>();
  new client.Counter({
    name: "bank_sen_transfers_total",
    help: "SEN transfers decided, by outcome (ok or the business code)",
    labelNames: ["outcome"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, n] of decided) this.inc({ outcome }, n);
    },
  });
  const batches = new client.Histogram({
    name: "bank_sen_transfer_batch_size",
    help: "Transfers per group commit (one statement and one transaction)",
    buckets: [1, 2, 4, 8, 16, 32],
    registers: [registry],
  });
  const failures = new client.Counter({
    name: "bank_delivery_failures_total",
    help: "Failed webhook and e-mail delivery attempts, by channel and receiver (host:port)",
    labelNames: ["channel", "receiver"] as const,
    registers: [registry],
  });
  // Both outbox gauges come from one query per scrape.
  let reading: Promise<Map<string, { n: number; oldest: Date | null }>> | null = null;
  const readOutbox = () => {
    reading ??= db
      .query<{ channel: string; n: number; oldest: Date | null }>(
        // Each half matches one of the outbox's partial indexes (never tried, retries): the
        // delivered rows, however many, are not read.
        `SELECT channel, sum(n)::bigint AS n, min(oldest) AS oldest FROM (
           SELECT channel, count(*) AS n, min(created_at) AS oldest FROM outbox
           WHERE state = 'pending' AND attempts = 0 GROUP BY channel
           UNION ALL
           SELECT channel, count(*), min(created_at) FROM outbox
           WHERE state = 'pending' AND attempts > 0 GROUP BY channel) p GROUP BY channel`,
      )
      .then(
        (rows) =>
          new Map(rows.map((r) => [r.channel, { n: r.n, oldest: r.oldest ? new Date(r.oldest) : null }])),
      )
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  const CHANNELS = ["http", "email"];
  new client.Gauge({
    name: "bank_outbox_pending",
    help: "Notifications not yet delivered (nor given up), by channel",
    labelNames: ["channel"] as const,
    registers: [registry],
    async collect() {
      const m = await readOutbox();
      for (const ch of CHANNELS) this.set({ channel: ch }, m.get(ch)?.n ?? 0);
    },
  });
  new client.Gauge({
    name: "bank_outbox_oldest_pending_age_seconds",
    help: "Age of the oldest notification not yet delivered, by channel (0 when none waits)",
    labelNames: ["channel"] as const,
    registers: [registry],
    async collect() {
      const m = await readOutbox();
      const now = clock.now().getTime();
      for (const ch of CHANNELS) {
        const oldest = m.get(ch)?.oldest;
        this.set({ channel: ch }, oldest ? Math.max(0, (now - oldest.getTime()) / 1000) : 0);
      }
    },
  });
  return {
    registry,
    http,
    transfer: (outcome) => decided.set(outcome, (decided.get(outcome) ?? 0) + 1),
    batch: (size) => batches.observe(size),
    deliveryFailed: (channel, receiver) => failures.inc({ channel, receiver }),
  };
}
