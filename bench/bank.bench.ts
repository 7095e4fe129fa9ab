// SEN transfers through HTTP (token and Idempotency-Key included) with 10,000 accounts and with
// 10 hot accounts, the same transfer SQL called in a loop without HTTP (the ceiling), latency at
// 1,000 transfers/s offered, and history reads over an account holding 90 days of 5,000 a day.
// Runs on PGlite and, when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set, on PostgreSQL.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startBank } from "../bank/app.ts";
import { loadBankConfig } from "../bank/config.ts";
import { createTransferExecutor, type TransferRecord } from "../bank/ledger/transfers.ts";
import { createCustomer } from "../bank/sandbox/core.ts";
import { addDays } from "../lib/bank-api/dates.ts";
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import {
  type BenchResult,
  commandCpuSeconds,
  mergeResults,
  percentile,
  processCpuSeconds,
  round,
  threadCpuSeconds,
  writeResults,
} from "./lib.ts";
import { closedLoop, openLoop, requester } from "./support/load.ts";

// BENCH_SMOKE=1 runs everything at its smallest (CI's check that the benchmark still runs; its
// figures mean nothing): 1 s loops, 500 accounts, 2 days of history, one overhead round.
const SMOKE = process.env.BENCH_SMOKE === "1";
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 8));
const ACCOUNTS = SMOKE ? 500 : 10_000;
const HISTORY_DAYS = SMOKE ? 2 : 90;
const HISTORY_READS = SMOKE ? 6 : 200;
const SANDBOX_KEY = "sbx_bench_key_0123456789";

interface Seeded {
  key: string;
  accounts: string[];
  historyAccount: string;
  historyDays: string[];
}

/** One SEN transfer of a cent between two seeded accounts, under a fresh Idempotency-Key. */
function transferRequest(key: string, jwt: string, from: string, to: string) {
  return {
    method: "POST",
    path: "/v2/account/transfersen",
    headers: {
      "content-type": "application/json",
      [BANK_HEADERS.subscriptionKey]: key,
      [BANK_HEADERS.authorization]: jwt,
      [BANK_HEADERS.idempotencyKey]: randomUUID(),
    },
    body: JSON.stringify({
      AccountNumberFrom: from,
      AccountNumberTo: to,
      Amount: 0.01,
      AccountFromDescription2: "BENCH",
    }),
  };
}

/** The transfer was made: a 200 with no ERROR item. */
const transferOk = (r: { status: number; body: string }) => r.status === 200 && r.body.includes('"ERROR":[]');

async function seed(env: Record<string, string>): Promise<{ seeded: Seeded; ceiling: BenchResult[] }> {
  const running = await startBank(
    loadBankConfig({ ...env, BANK_PORT: "0", BANK_SANDBOX_KEY: SANDBOX_KEY, BANK_DB_POOL: "16" }),
    {
      quiet: true,
    },
  );
  const { db, clock } = running.bank;
  try {
    const { customerId, subscriptionKey } = await createCustomer(db, { name: "Bench Treasury Inc" });
    const opened = clock.businessDate();
    const rows = await db.query<{ number: string }>(
      `INSERT INTO accounts (number, customer_id, type, title_lines, short_name, opened_on)
       SELECT (2000000000 + g)::text, $1, 'SEN', ARRAY['BENCH TREASURY INC'], 'BENCH', $2 FROM generate_series(1, $3::int) g
       RETURNING number`,
      [customerId, opened, ACCOUNTS],
    );
    const accounts = rows.map((r) => r.number).sort();
    await db.query(
      "SELECT post_entry(number, 'C', 100000000, '1100', ARRAY['OPENING DEPOSIT'], now(), $1, '', '') FROM accounts WHERE customer_id = $2",
      [opened, customerId],
    );

    // 90 days of 5,000 entries a day on one account, written in bulk.
    const historyAccount = "2999999999";
    await db.query(
      `INSERT INTO accounts (number, customer_id, type, title_lines, short_name, opened_on, available_cents, current_cents)
       VALUES ($1, $2, 'SEN', ARRAY['BENCH TREASURY INC'], 'BENCH HIST', $3, 0, 0)`,
      [historyAccount, customerId, addDays(opened, -HISTORY_DAYS)],
    );
    const historyDays: string[] = [];
    for (let d = HISTORY_DAYS; d >= 1; d--) {
      const day = addDays(opened, -d);
      historyDays.push(day);
      await db.query(
        `INSERT INTO ledger_entries (account_number, posted_at, tran_date, amount_cents, dr_cr, tran_code, descriptions, available_after_cents, memo_post)
         SELECT $1, $2::timestamptz + make_interval(secs => g), $3, 100 + g, 'C', '9084',
                ARRAY['SEN from 2000000001', 'BATCH ' || g, '', '', '', '', '', '', '', '', ''], 1000 * g, false
         FROM generate_series(1, 5000) g`,
        [historyAccount, `${day}T12:00:00Z`, day],
      );
    }
    await db.query("ANALYZE");
    // Write the bulk load's dirty pages out now: PGlite has no background writer, so the loop
    // below would otherwise pay for them page by page.
    await db.query("CHECKPOINT");

    // The ceiling: the route's transfer executor in a loop, no HTTP, no JSON parsing of
    // requests. Under load the route sends batches of up to 32 (group commit), as many at once as
    // the executor has slots (4 on PostgreSQL, 1 on PGlite); the loop keeps every slot's next
    // batch queued, so the ratio shows what HTTP costs. The same executor one transfer per
    // statement (8 slots on PostgreSQL, 1 on PGlite) is recorded beside it.
    const desc = (first: string) => [first, "BENCH", "", "", "", "", "", "", "", "", ""];
    let n = 0;
    const record = (): TransferRecord => {
      n++;
      const from = accounts[(n * 7919) % accounts.length];
      let to = accounts[(n * 104729 + 1) % accounts.length];
      if (to === from) to = accounts[(n * 7919 + 1) % accounts.length];
      return {
        customer: customerId,
        from,
        to,
        cents: 1,
        key: randomUUID(),
        hash: "h",
        now: new Date().toISOString(),
        date: opened,
        fromDesc: desc(`SEN to ${to}`),
        toDesc: desc(`SEN from ${from}`),
        serial1: "",
        serial2: "",
        id: `SEN${randomUUID().slice(0, 12)}`,
      };
    };
    const pg = !!env.BANK_DATABASE_URL;
    const loop = async (slots: number, batch: number): Promise<number> => {
      const executor = createTransferExecutor(db, { slots, maxBatch: batch, gather: !pg });
      let done = 0;
      const started = performance.now();
      const deadline = started + (SECONDS / 4) * 1000;
      // Two batches' worth per slot in flight: one running, one queued behind it.
      await Promise.all(
        Array.from({ length: slots * batch * 2 }, async () => {
          while (performance.now() < deadline) {
            const r = await executor.execute(record());
            if (r.code !== "ok") throw new Error(`transfer: ${r.code}`);
            done++;
          }
        }),
      );
      return done / ((performance.now() - started) / 1000);
    };
    const batched = await loop(pg ? 4 : 1, 32);
    const single = await loop(pg ? 8 : 1, 1);
    return {
      seeded: { key: subscriptionKey, accounts, historyAccount, historyDays },
      ceiling: [
        {
          name: "transfersen_sql_loop_ceiling",
          value: round(batched),
          unit: "transfers/s",
          better: "higher",
          note: `batches of 32, ${pg ? 4 : 1} at once`,
        },
        {
          name: "transfersen_sql_loop_one_per_statement",
          value: round(single),
          unit: "transfers/s",
          better: "higher",
          note: `${pg ? 8 : 1} at once, one transfer per statement`,
        },
      ],
    };
  } finally {
    await running.close();
  }
}

async function spawnBank(
  env: Record<string, string>,
  port: number,
): Promise<{ url: string; child: ChildProcess }> {
  // BENCH_BANK_STDOUT: a file (such as /dev/null) for the bank's stdout instead of a pipe this
  // process drains, to tell what writing the request log costs from what draining the pipe costs.
  const stdoutFile = process.env.BENCH_BANK_STDOUT;
  // BENCH_BANK_NODE_ARGS: node flags for each bank (`--perf-basic-prof`, for `perf record` to name
  // JavaScript frames).
  const nodeArgs = (process.env.BENCH_BANK_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "bank/main.ts"], {
    env: {
      ...process.env,
      ...env,
      BANK_PORT: String(port),
      BANK_SANDBOX_KEY: SANDBOX_KEY,
      BANK_DB_POOL: "16",
    },
    stdio: ["ignore", stdoutFile ? fs.openSync(stdoutFile, "a") : "pipe", "inherit"],
  });
  if (stdoutFile) {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`bank exited ${child.exitCode}`);
      const up = await fetch(`${url}/livez`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return { url, child };
      if (i > 600) throw new Error("the bank did not answer /livez within a minute");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const url = await new Promise<string>((resolve, reject) => {
    let out: string | null = "";
    // Only the start-up is read: the request log that follows is drained, not kept.
    child.stdout?.on("data", (d) => {
      if (out === null) return;
      out += d;
      const m = /Bank listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        out = null;
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`bank exited ${code}`)));
  });
  return { url, child };
}

/** BENCH_BANK_ONLY=observability measures only what logs and metrics cost (kept beside the rest). */
const OBSERVABILITY_ONLY = process.env.BENCH_BANK_ONLY === "observability";

async function measure(label: string, env: Record<string, string>): Promise<BenchResult[]> {
  console.log(`seeding ${label}…`);
  const { seeded, ceiling } = await seed(env);
  if (OBSERVABILITY_ONLY) {
    // A token from a bank of its own, stopped before the comparison starts its banks.
    const { url, child } = await spawnBank(env, 4700 + Math.floor(Math.random() * 200));
    let jwt: string;
    try {
      const tok = await fetch(`${url}/v2/access/token`, {
        headers: { [BANK_HEADERS.subscriptionKey]: seeded.key },
      });
      if (tok.status !== 200) throw new Error(`token: ${tok.status}`);
      jwt = tok.headers.get(BANK_HEADERS.authorization) as string;
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    return observabilityOverhead(label, env, seeded, jwt);
  }
  const { url, child } = await spawnBank(env, 4700 + Math.floor(Math.random() * 200));
  const results: BenchResult[] = [];
  const tag = (n: string) => n.replace("{db}", label);
  let token = "";
  try {
    const send = requester(url, 64);
    const tok = await fetch(`${url}/v2/access/token`, {
      headers: { [BANK_HEADERS.subscriptionKey]: seeded.key },
    });
    if (tok.status !== 200) throw new Error(`token: ${tok.status}`);
    const jwt = tok.headers.get(BANK_HEADERS.authorization) as string;
    token = jwt;
    const transfer = (pick: (i: number) => [string, string]) => (i: number) =>
      transferRequest(seeded.key, jwt, ...pick(i));
    const ok = transferOk;
    const n = seeded.accounts.length;
    const wide = transfer((i) => {
      const a = (i * 7919 + 13) % n;
      const b = (a + 1 + ((i * 104729) % (n - 1))) % n;
      return [seeded.accounts[a], seeded.accounts[b]];
    });
    const hot = transfer((i) => [seeded.accounts[i % 10], seeded.accounts[(i + 1 + (i % 9)) % 10]]);

    await closedLoop(send, wide, { concurrency: 16, seconds: SMOKE ? 0.2 : 2, ok }); // warm-up
    // CPU time of each party over the run: unlike rates, it barely moves when other work
    // shares the machine, so the cost per transfer is comparable across runs.
    const cpu = () => ({
      bank: processCpuSeconds(child.pid as number),
      postgres: label === "pg" ? commandCpuSeconds("postgres") : 0,
      load: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    });
    const c0 = cpu();
    const w = await closedLoop(send, wide, { concurrency: 32, seconds: SECONDS, ok });
    const c1 = cpu();
    const perTransfer = (k: keyof typeof c0) => ((c1[k] - c0[k]) * 1000) / w.count;
    const serverCpuMs = perTransfer("bank") + perTransfer("postgres");
    results.push(
      {
        name: tag("transfersen_http_{db}_10k_accounts"),
        value: round(w.perSecond),
        unit: "transfers/s",
        better: "higher",
        target: label === "pg" ? 2500 : 1500,
        note: `${w.errors} errors`,
      },
      {
        name: tag("transfersen_http_{db}_10k_accounts_p50"),
        value: percentile(w.latencies, 50),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("transfersen_http_{db}_10k_accounts_p99"),
        value: percentile(w.latencies, 99),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("transfersen_http_{db}_cpu_per_transfer_bank"),
        value: round(perTransfer("bank"), 3),
        unit: "ms",
        better: "lower",
        note: label === "pg" ? "the bank's process" : "the bank's process, PGlite included",
      },
      ...(label === "pg"
        ? [
            {
              name: "transfersen_http_pg_cpu_per_transfer_postgres",
              value: round(perTransfer("postgres"), 3),
              unit: "ms",
              better: "lower" as const,
              note: "every postgres process of the server",
            },
          ]
        : []),
      {
        name: tag("transfersen_http_{db}_cpu_per_transfer_load_generator"),
        value: round(perTransfer("load"), 3),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("transfersen_http_{db}_cpu_bound_estimate"),
        // PGlite runs inside the bank's one JavaScript thread: one core, whatever the machine has.
        value: round(((label === "pg" ? os.cpus().length : 1) * 1000) / serverCpuMs),
        unit: "transfers/s",
        better: "higher",
        target: label === "pg" ? 2500 : 1500,
        note:
          label === "pg"
            ? "cores divided by the server side's CPU per transfer (bank and PostgreSQL): the rate with the machine to themselves"
            : "one core (the bank's thread runs HTTP and PGlite) divided by its CPU per transfer",
      },
    );
    const h = await closedLoop(send, hot, { concurrency: 32, seconds: SECONDS, ok });
    results.push(
      {
        name: tag("transfersen_http_{db}_10_hot_accounts"),
        value: round(h.perSecond),
        unit: "transfers/s",
        better: "higher",
        note: `${h.errors} errors`,
      },
      {
        name: tag("transfersen_http_{db}_10_hot_accounts_p50"),
        value: percentile(h.latencies, 50),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("transfersen_http_{db}_10_hot_accounts_p99"),
        value: percentile(h.latencies, 99),
        unit: "ms",
        better: "lower",
      },
    );
    const o = await openLoop(send, wide, { rate: 1000, seconds: Math.max(SMOKE ? 1 : 3, SECONDS / 2), ok });
    results.push({
      name: tag("transfersen_http_{db}_p99_at_1000_per_s_offered"),
      value: percentile(o.latencies, 99),
      unit: "ms",
      better: "lower",
      target: 20,
      note: `${o.count} sent, ${o.errors} errors, achieved ${round(o.perSecond)}/s`,
    });
    results.push(
      {
        name: tag("transfersen_http_{db}_p50_at_1000_per_s_offered"),
        value: percentile(o.latencies, 50),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("transfersen_http_{db}_p90_at_1000_per_s_offered"),
        value: percentile(o.latencies, 90),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("transfersen_http_{db}_max_at_1000_per_s_offered"),
        value: percentile(o.latencies, 100),
        unit: "ms",
        better: "lower",
      },
    );
    results.push(
      ...ceiling.map((c) => ({ ...c, name: c.name.replace("transfersen_", `transfersen_${label}_`) })),
    );
    results.push({
      name: tag("transfersen_{db}_http_to_ceiling_ratio"),
      value: round(w.perSecond / ceiling[0].value, 2),
      unit: "ratio",
      better: "higher",
    });

    // History over the 450,000-entry account.
    const historyLat: number[] = [];
    const extLat: number[] = [];
    const auth = { [BANK_HEADERS.subscriptionKey]: seeded.key, [BANK_HEADERS.authorization]: jwt };
    // Enough samples that p99 is not simply the slowest of a few dozen.
    for (let i = 0; i < HISTORY_READS; i++) {
      const day = seeded.historyDays[(i * 17) % seeded.historyDays.length];
      let t = performance.now();
      const r = await send({
        method: "GET",
        path: `/v2/account/history?accountNumber=${seeded.historyAccount}&beginDate=${day}&endDate=${addDays(day, 7)}`,
        headers: auth,
      });
      historyLat.push(performance.now() - t);
      if (!r.body.includes('"RECS_RETURNED":520')) throw new Error(`history: ${r.body.slice(0, 200)}`);
      if (i % 3 === 0) {
        t = performance.now();
        const e = await send({
          method: "GET",
          path: `/v2/account/extendedhistory?accountNumber=${seeded.historyAccount}&date=${day}`,
          headers: auth,
        });
        extLat.push(performance.now() - t);
        if (!e.body.includes('"RECS_RETURNED":5000'))
          throw new Error(`extendedhistory: ${e.body.slice(0, 200)}`);
      }
    }
    results.push(
      {
        name: tag("history_520_items_{db}_p50"),
        value: percentile(historyLat, 50),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("history_520_items_{db}_p99"),
        value: percentile(historyLat, 99),
        unit: "ms",
        better: "lower",
        target: 30,
      },
      {
        name: tag("extendedhistory_5000_items_{db}_p50"),
        value: percentile(extLat, 50),
        unit: "ms",
        better: "lower",
      },
      {
        name: tag("extendedhistory_5000_items_{db}_p99"),
        value: percentile(extLat, 99),
        unit: "ms",
        better: "lower",
        target: 250,
      },
    );
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  results.push(...(await observabilityOverhead(label, env, seeded, token)));
  return results;
}

/** Rounds of the overhead comparison, both banks loaded at once in each. */
// The harness's own noise (both banks off, BENCH_OVERHEAD_ON_ENV="BANK_METRICS=off,BANK_LOG_REQUESTS=0")
// is about 2% over 6 rounds on a machine shared with other work: fewer rounds cannot tell 5% apart.
const OVERHEAD_ROUNDS = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? (SMOKE ? 1 : 8));
/** Load before each round's measurement, so that V8 has compiled the hot paths of both banks. */
const OVERHEAD_WARMUP_SECONDS = Number(process.env.BENCH_OVERHEAD_WARMUP_SECONDS ?? 10);
/** What turns logs and metrics off: no /metrics and no request log line. */
const OBSERVABILITY_OFF = { BANK_METRICS: "off", BANK_LOG_REQUESTS: "0" };
/**
 * BENCH_OVERHEAD_ON_ENV (`K=V,K=V`): settings for the "on" bank of each pair, to find which part
 * costs what (`BANK_METRICS=off` leaves the request log alone on; `BANK_LOG_REQUESTS=0` the metrics).
 */
const OBSERVABILITY_ON: Record<string, string> = Object.fromEntries(
  (process.env.BENCH_OVERHEAD_ON_ENV ?? "")
    .split(",")
    .filter((kv) => kv.includes("="))
    .map((kv) => [kv.slice(0, kv.indexOf("=")).trim(), kv.slice(kv.indexOf("=") + 1).trim()]),
);

/**
 * What logs and metrics cost, side by side: two banks at once, one with them on (the default: a
 * JSON line per request, counted and timed) and one with them off, each given the same SEN
 * transfer load at the same time, so that whatever else a shared machine is doing falls on both
 * alike. On PostgreSQL both serve one database; on PGlite each has its own copy of the seeded
 * one. Each round starts a fresh pair with the roles swapped. Reported as the median over rounds
 * of the throughput ratio (off over on: 1.05 would be a 5% cost) and of the bank's CPU per
 * transfer (on over off).
 */
async function observabilityOverhead(
  label: string,
  env: Record<string, string>,
  seeded: Seeded,
  jwt: string,
): Promise<BenchResult[]> {
  const n = seeded.accounts.length;
  const spec = (offset: number) => (i: number) => {
    const a = (i * 7919 + 13 + offset) % n;
    const b = (a + 1 + ((i * 104729) % (n - 1))) % n;
    return transferRequest(seeded.key, jwt, seeded.accounts[a], seeded.accounts[b]);
  };
  const ok = transferOk;
  // PGlite is one process's database: the second bank of a pair gets a copy of the seeded one.
  const copy = env.BANK_DATA_DIR ? `${env.BANK_DATA_DIR}-copy` : null;
  if (copy && env.BANK_DATA_DIR) fs.cpSync(env.BANK_DATA_DIR, copy, { recursive: true });
  const totals = {
    on: { count: 0, seconds: 0, cpu: 0, main: 0, others: 0 },
    off: { count: 0, seconds: 0, cpu: 0, main: 0, others: 0 },
  };
  const ratios = { throughput: [] as number[], cpu: [] as number[] };
  const seconds = Math.max(1, SECONDS / 2);
  for (let round = 0; round < OVERHEAD_ROUNDS; round++) {
    console.log(`overhead ${label}: round ${round + 1}, logs and metrics on and off at once`);
    // A fresh pair each round, the roles swapped between the two databases and start order, so
    // that neither a process's luck with the JIT nor its place falls on one side.
    const modes = round % 2 ? (["off", "on"] as const) : (["on", "off"] as const);
    const banks = await Promise.all(
      modes.map((mode, m) =>
        spawnBank(
          {
            ...env,
            ...(mode === "off" ? OBSERVABILITY_OFF : OBSERVABILITY_ON),
            ...(copy && m === 1 ? { BANK_DATA_DIR: copy } : {}),
          },
          4700 + m * 100 + Math.floor(Math.random() * 100),
        ),
      ),
    );
    try {
      const sends = banks.map(({ url }) => requester(url, 64));
      const load = (conc: number, secs: number) =>
        Promise.all(
          sends.map((send, m) =>
            closedLoop(send, spec(round * 17 + m * 5), { concurrency: conc, seconds: secs, ok }),
          ),
        );
      // Warm-up: long enough for the JIT to have compiled the hot paths of both (a server runs for
      // hours; its compiling is not what a request costs).
      await load(8, SMOKE ? 0.2 : OVERHEAD_WARMUP_SECONDS);
      const c0 = banks.map(({ child }) => processCpuSeconds(child.pid as number));
      const t0 = banks.map(({ child }) => threadCpuSeconds(child.pid as number));
      const runs = await load(16, seconds);
      const c1 = banks.map(({ child }) => processCpuSeconds(child.pid as number));
      const t1 = banks.map(({ child }) => threadCpuSeconds(child.pid as number));
      const of = { on: 0, off: 0 };
      modes.forEach((mode, m) => {
        if (runs[m].errors) throw new Error(`overhead ${mode}: ${runs[m].errors} errors`);
        totals[mode].count += runs[m].count;
        totals[mode].seconds += runs[m].seconds;
        totals[mode].cpu += c1[m] - c0[m];
        totals[mode].main += t1[m].main - t0[m].main;
        totals[mode].others += t1[m].others - t0[m].others;
        of[mode] = m;
      });
      const rateOf = (m: number) => runs[m].count / runs[m].seconds;
      const cpuOf = (m: number) => (c1[m] - c0[m]) / runs[m].count;
      ratios.throughput.push(rateOf(of.off) / rateOf(of.on));
      ratios.cpu.push(cpuOf(of.on) / cpuOf(of.off));
    } finally {
      for (const { child } of banks) child.kill("SIGTERM");
      await Promise.all(banks.map(({ child }) => new Promise((r) => child.once("exit", r))));
    }
  }
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const range = (xs: number[]) => `${round(Math.min(...xs), 3)}–${round(Math.max(...xs), 3)}`;
  const rate = (m: "on" | "off") => totals[m].count / totals[m].seconds;
  const cpuMs = (m: "on" | "off") => (totals[m].cpu * 1000) / totals[m].count;
  const µs = (m: "on" | "off", part: "main" | "others") =>
    `${Math.round((totals[m][part] * 1e6) / totals[m].count)} µs`;
  const threads = `main thread ${µs("on", "main")} against ${µs("off", "main")}, other threads ${µs("on", "others")} against ${µs("off", "others")}`;
  console.log(`overhead ${label}: per transfer, ${threads}`);
  const note = `median of ${OVERHEAD_ROUNDS} rounds of ${seconds} s, each a fresh pair of banks loaded at once (16 clients each) after ${OVERHEAD_WARMUP_SECONDS} s of warm-up`;
  return [
    {
      name: `transfersen_http_${label}_observability_on`,
      value: round(rate("on")),
      unit: "transfers/s",
      better: "higher",
      note: Object.keys(OBSERVABILITY_ON).length
        ? `the "on" bank with ${process.env.BENCH_OVERHEAD_ON_ENV}`
        : "JSON request log and metrics on (the default)",
    },
    {
      name: `transfersen_http_${label}_observability_off`,
      value: round(rate("off")),
      unit: "transfers/s",
      better: "higher",
      note: "BANK_METRICS=off BANK_LOG_REQUESTS=0",
    },
    {
      name: `transfersen_http_${label}_observability_cost_ratio`,
      value: round(median(ratios.throughput), 3),
      unit: "ratio",
      better: "lower",
      target: 1.05,
      note: `throughput off over on; ${note}; rounds ranged ${range(ratios.throughput)}; all rounds pooled ${round(rate("off") / rate("on"), 3)}`,
    },
    {
      name: `transfersen_http_${label}_observability_cpu_ratio`,
      value: round(median(ratios.cpu), 3),
      unit: "ratio",
      better: "lower",
      target: 1.05,
      note: `the bank's CPU per transfer, on over off (in all, ${round(cpuMs("on"), 3)} ms against ${round(cpuMs("off"), 3)} ms; ${threads}); ${note}; rounds ranged ${range(ratios.cpu)}`,
    },
  ];
}

export async function run() {
  const results: BenchResult[] = [];
  // BENCH_BANK_BACKENDS=pg (or pglite) measures one backend alone.
  const backends = (process.env.BENCH_BANK_BACKENDS ?? "pglite,pg").split(",");
  if (backends.includes("pglite")) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bank-bench-"));
    try {
      results.push(...(await measure("pglite", { BANK_DATA_DIR: dir })));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl && backends.includes("pg")) {
    const db = await createTestDatabase(pgUrl);
    try {
      results.push(...(await measure("pg", { BANK_DATABASE_URL: db.url })));
    } finally {
      await db.drop();
    }
  } else {
    console.log("TEST_DATABASE_URL not set: PostgreSQL figures skipped");
  }
  if (OBSERVABILITY_ONLY) mergeResults("bank", results);
  else writeResults("bank", results);
}
