// What the bank's request log and metrics cost: two banks loaded at once, one with them on and one
// off, in fresh pairs round after round.
import fs from "node:fs";
import { type BenchResult, processCpuSeconds, round, threadCpuSeconds } from "../lib.ts";
import { closedLoop, requester } from "../support/load.ts";
import { SECONDS, type Seeded, SMOKE, spawnBank, transferOk, transferRequest } from "./process.ts";

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
export async function observabilityOverhead(
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
