// Webhook delivery: how soon after a balance change commits the receiver is called, how many
// notifications per second the dispatcher delivers to a receiver that takes 50 ms to answer, and
// how soon a receiver is live again after an outage: balance changes at a steady rate while it
// answers 503 for a while, then the delay of the changes made after it came back and the time
// to drain what waited. Runs on the embedded database; with TEST_DATABASE_URL also on PostgreSQL.
// Knobs: BENCH_WEBHOOK_OUTAGE_SECONDS (60), BENCH_WEBHOOK_RATE (200 changes/s),
// BENCH_WEBHOOK_AFTER_SECONDS (10 s of changes after the recovery).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startBank } from "../bank/app.ts";
import { loadBankConfig } from "../bank/config.ts";
import type { Bank } from "../bank/context.ts";
import { insertWebhook } from "../bank/notify/webhook-store.ts";
import { createCustomer, createSandboxAccount } from "../bank/sandbox/core.ts";
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { type BenchResult, percentile, round, writeResults } from "./lib.ts";

const LATENCY_SAMPLES = 200;
const BURST = 3000;
const RECEIVER_DELAY_MS = 50;
const OUTAGE_SECONDS = Number(process.env.BENCH_WEBHOOK_OUTAGE_SECONDS || 60);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE || 200);
const AFTER_SECONDS = Number(process.env.BENCH_WEBHOOK_AFTER_SECONDS || 10);

async function receiver(
  delayMs: number,
  onHit: (body: string, at: number) => void,
  up: () => boolean = () => true,
) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.timeOrigin + performance.now();
      if (!up()) {
        res.writeHead(503);
        res.end();
        return;
      }
      onHit(Buffer.concat(chunks).toString("utf8"), at);
      const answer = () => {
        res.writeHead(200);
        res.end();
      };
      if (delayMs) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/**
 * A bank of its own for one measurement: on the embedded database in a fresh folder, or on a
 * fresh PostgreSQL database; `hits` holds when each notification (`account:balance`) first
 * arrived at a receiver that reports to `firstHit`. `close` stops the bank, then the receivers,
 * and removes the database.
 */
async function benchBank(kind: "pglite" | "pg", folder: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), folder));
  const database =
    kind === "pg" ? await createTestDatabase(process.env.TEST_DATABASE_URL as string) : undefined;
  const config = loadBankConfig({
    BANK_PORT: "0",
    BANK_SANDBOX_KEY: "sbx_bench_webhooks_key",
    ...(database ? { BANK_DATABASE_URL: database.url, BANK_DB_POOL: "20" } : { BANK_DATA_DIR: dataDir }),
  });
  const running = await startBank(config, { quiet: true });
  const hits = new Map<string, number>();
  return {
    config,
    running,
    bank: running.bank,
    hits,
    firstHit: (body: string, at: number) => {
      const n = JSON.parse(body) as { AccountNumber: string; AvailableBalance: string };
      const key = `${n.AccountNumber}:${n.AvailableBalance}`;
      if (!hits.has(key)) hits.set(key, at);
    },
    close: async (...receivers: { close: () => Promise<void> }[]) => {
      await running.close();
      for (const r of receivers) await r.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

/** New SEN accounts of the customer, each with a webhook to `url`. */
async function watchedAccounts(
  bank: Bank,
  customerId: number,
  url: string,
  count: number,
): Promise<string[]> {
  const accounts: string[] = [];
  for (let i = 0; i < count; i++) {
    const { accountNumber } = await createSandboxAccount(bank, { customerId, type: "SEN" });
    await insertWebhook(
      bank.db,
      customerId,
      { AccountNumber: accountNumber, WebHookUrl: url },
      bank.clock.now(),
    );
    accounts.push(accountNumber);
  }
  return accounts;
}

async function measure(kind: "pglite" | "pg"): Promise<BenchResult[]> {
  const setup = await benchBank(kind, "bench-webhooks-");
  const { config, running, bank, hits } = setup;
  let delay = 0;
  const recv = await receiver(0, setup.firstHit);
  const slow = await receiver(RECEIVER_DELAY_MS, setup.firstHit);
  try {
    const c = await createCustomer(bank.db, { name: "Bench Webhooks Co" });
    const [fast] = await watchedAccounts(bank, c.customerId, recv.url, 1);

    // 1. Latency: one balance change at a time, through the ledger function over HTTP, as a client makes it.
    const latencies: number[] = [];
    for (let i = 1; i <= LATENCY_SAMPLES; i++) {
      const res = await fetch(`${running.url}/sandbox/deposits`, {
        method: "POST",
        headers: { "content-type": "application/json", [BANK_HEADERS.sandboxKey]: config.sandboxKey },
        body: JSON.stringify({ accountNumber: fast, amount: 1 }),
      });
      if (res.status !== 201) throw new Error(`deposit answered ${res.status}`);
      const balance = String(i * 100).padStart(9, "0");
      const key = `${fast}:${balance}`;
      while (!hits.has(key)) await new Promise((r) => setTimeout(r, 1));
      // The notification's own time is taken inside the balance change, before its commit: the
      // figure is an upper bound of commit-to-attempt.
      const [row] = await bank.db.query<{ created_at: Date | string }>(
        `SELECT created_at FROM outbox WHERE payload->>'AccountNumber' = $1 AND payload->>'AvailableBalance' = $2`,
        [fast, balance],
      );
      latencies.push((hits.get(key) as number) - new Date(row.created_at).getTime());
      await new Promise((r) => setTimeout(r, 5));
    }

    // 2. Throughput: a burst of balance changes committed at once (ten accounts, one statement),
    // drained to a receiver that answers in 50 ms.
    const accounts = await watchedAccounts(bank, c.customerId, slow.url, 10);
    const perAccount = BURST / accounts.length;
    const expected = accounts.flatMap((a) =>
      Array.from({ length: perAccount }, (_, i) => `${a}:${String((i + 1) * 100).padStart(9, "0")}`),
    );
    const t0 = performance.timeOrigin + performance.now();
    await bank.db.query(
      `SELECT post_entry(a, 'C', 100, '2001', ARRAY['BENCH'], now(), current_date, '', '')
       FROM unnest($1::text[]) AS a, generate_series(1, $2) AS g ORDER BY g, a`,
      [accounts, perAccount],
    );
    const committed = performance.timeOrigin + performance.now();
    bank.events.emit("balance-changed");
    const deadline = Date.now() + 120_000;
    while (expected.some((k) => !hits.has(k))) {
      if (Date.now() > deadline) throw new Error("burst not delivered within 120 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = Math.max(...expected.map((k) => hits.get(k) as number));
    const first = Math.min(...expected.map((k) => hits.get(k) as number));
    const perSecond = BURST / ((last - committed) / 1000);
    delay = first - committed;
    const label = kind === "pg" ? "_pg" : "";
    return [
      {
        name: `webhook_commit_to_first_attempt${label}_p50`,
        note: `${LATENCY_SAMPLES} deposits over HTTP, one at a time; from the balance change to the receiver's first request`,
        value: percentile(latencies, 50),
        unit: "ms",
        better: "lower",
      },
      {
        name: `webhook_commit_to_first_attempt${label}_p99`,
        value: percentile(latencies, 99),
        unit: "ms",
        better: "lower",
        target: 1000,
      },
      {
        name: `webhook_deliveries_per_second${label}_50ms_receiver`,
        value: round(perSecond),
        unit: "deliveries/s",
        better: "higher",
        target: 200,
        note: `${BURST} notifications committed in one transaction (${round(committed - t0)} ms); first delivery ${round(delay)} ms after commit; 64 in flight at most`,
      },
    ];
  } finally {
    await setup.close(recv, slow);
  }
}

/**
 * After an outage: RATE balance changes per second on ten accounts for OUTAGE_SECONDS while the
 * receiver answers 503, then AFTER_SECONDS more once it answers 200 again. Measured: the delay of
 * each change made after the recovery (commit to first delivery), and the time from the recovery
 * until every notification written during the outage has arrived.
 */
async function measureOutage(kind: "pglite" | "pg"): Promise<BenchResult[]> {
  const setup = await benchBank(kind, "bench-webhooks-outage-");
  const { config, bank, hits } = setup;
  let up = false;
  const recv = await receiver(0, setup.firstHit, () => up);
  try {
    const c = await createCustomer(bank.db, { name: "Bench Outage Co" });
    const accounts = await watchedAccounts(bank, c.customerId, recv.url, 10);
    const counts = new Map(accounts.map((a) => [a, 0]));
    /** Commit time of each change, by its notification key. */
    const committedAt = new Map<string, number>();
    // Changes go in ticks of 50 ms, each one statement of RATE/20 deposits spread over the accounts.
    const perTick = Math.max(1, Math.round(RATE / 20));
    let next = 0;
    const change = async (): Promise<string[]> => {
      const batch = Array.from({ length: perTick }, () => accounts[next++ % accounts.length]);
      await bank.db.query(
        `SELECT post_entry(a, 'C', 100, '2001', ARRAY['BENCH'], now(), current_date, '', '')
         FROM unnest($1::text[]) WITH ORDINALITY AS t(a, n) ORDER BY n`,
        [batch],
      );
      const at = performance.timeOrigin + performance.now();
      bank.events.emit("balance-changed");
      return batch.map((a) => {
        const n = (counts.get(a) as number) + 1;
        counts.set(a, n);
        const key = `${a}:${String(n * 100).padStart(9, "0")}`;
        committedAt.set(key, at);
        return key;
      });
    };
    const steady = async (seconds: number) => {
      const keys: string[] = [];
      const start = performance.now();
      for (let tick = 0; performance.now() - start < seconds * 1000; tick++) {
        keys.push(...(await change()));
        const wait = start + (tick + 1) * 50 - performance.now();
        // Late or not, let the bank's timers and sockets run between two ticks: the embedded
        // database answers without leaving the event loop, so a loop of late ticks would starve
        // them (a client's transfers arrive as socket events, never like this).
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        else await new Promise((r) => setImmediate(r));
      }
      return keys;
    };
    const during = await steady(OUTAGE_SECONDS);
    up = true;
    const recoveredAt = performance.timeOrigin + performance.now();
    const after = await steady(AFTER_SECONDS);
    const deadline = Date.now() + 600_000;
    while ([...during, ...after].some((k) => !hits.has(k))) {
      if (Date.now() > deadline) throw new Error("the backlog was not delivered within 10 minutes");
      await new Promise((r) => setTimeout(r, 50));
    }
    const delays = after.map((k) => (hits.get(k) as number) - (committedAt.get(k) as number));
    const drained = Math.max(...during.map((k) => hits.get(k) as number)) - recoveredAt;
    const label = kind === "pg" ? "_pg" : "";
    const setting = `${RATE} changes/s on 10 accounts, receiver answering 503 for ${OUTAGE_SECONDS} s (${during.length} notifications waiting), then 200 in under 1 ms; retry base ${config.webhookRetryBaseMs} ms`;
    return [
      {
        name: `webhook_after_outage_fresh_delay${label}_p50`,
        note: `${setting}; the ${after.length} changes of the ${AFTER_SECONDS} s after the recovery, commit to delivery`,
        value: round(percentile(delays, 50)),
        unit: "ms",
        better: "lower",
      },
      {
        name: `webhook_after_outage_fresh_delay${label}_p99`,
        value: round(percentile(delays, 99)),
        unit: "ms",
        better: "lower",
        target: 2000,
      },
      {
        name: `webhook_after_outage_first_change_delay${label}`,
        note: "the first change made after the recovery",
        value: round(delays[0]),
        unit: "ms",
        better: "lower",
      },
      {
        name: `webhook_after_outage_backlog_drain${label}`,
        note: "from the recovery until every notification written during the outage has arrived",
        value: round(drained / 1000, 2),
        unit: "s",
        better: "lower",
      },
    ];
  } finally {
    await setup.close(recv);
  }
}

export async function run() {
  const results = await measure("pglite");
  results.push(...(await measureOutage("pglite")));
  if (process.env.TEST_DATABASE_URL) {
    results.push(...(await measure("pg")));
    results.push(...(await measureOutage("pg")));
  }
  writeResults("webhooks", results);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
