// One business day of scheduled payments: BENCH_SCHEDULE_SERIES (10,000) active series due on the
// day, one run of the engine (lib/schedules/engine.ts) on PGlite and, with TEST_DATABASE_URL, on
// PostgreSQL, against a real bank: time, the engine process's CPU and (PostgreSQL) transactions;
// then BENCH_SCHEDULE_SWEEPS (100) sweeps' run of the same day. Results: bench/results/schedules.json.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { type BenchResult, writeResults } from "./lib.ts";

const dir = path.dirname(new URL(import.meta.url).pathname);

function day(env: Record<string, string>): {
  ms: number;
  cpuMs: number;
  transactions: number | null;
  report: { sent: number };
  sweeps: {
    count: number;
    ms: number;
    cpuMs: number;
    transactions: number | null;
    report: { moved: number };
  };
} {
  const out = execFileSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join(dir, "support/schedule-day.ts")],
    { env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(out.trim().split("\n").at(-1) as string);
}

export async function run(): Promise<void> {
  const series = Number(process.env.BENCH_SCHEDULE_SERIES || 10_000);
  const results: BenchResult[] = [];
  const backends: [string, Record<string, string>][] = [["PGlite", {}]];
  if (process.env.TEST_DATABASE_URL)
    backends.push(["PostgreSQL", { BENCH_SCHEDULE_DATABASE_URL: process.env.TEST_DATABASE_URL }]);
  for (const [name, env] of backends) {
    const r = day(env);
    if (r.report.sent !== series) throw new Error(`${name}: ${r.report.sent} of ${series} occurrences sent`);
    results.push(
      { name: `${name}: one day's run, ${series} series`, value: r.ms, unit: "ms", better: "lower" },
      {
        name: `${name}: occurrences per second`,
        value: Math.round((series * 1000) / r.ms),
        unit: "/s",
        better: "higher",
      },
      { name: `${name}: engine CPU`, value: r.cpuMs, unit: "ms", better: "lower" },
    );
    if (r.transactions !== null)
      results.push({
        name: `${name}: database transactions per occurrence`,
        value: Math.round((r.transactions / series) * 10) / 10,
        unit: "tx",
        better: "lower",
      });
    const w = r.sweeps;
    if (w.report.moved !== w.count) throw new Error(`${name}: ${w.report.moved} of ${w.count} sweeps moved`);
    results.push(
      { name: `${name}: one day's run, ${w.count} sweeps`, value: w.ms, unit: "ms", better: "lower" },
      { name: `${name}: sweeps engine CPU`, value: w.cpuMs, unit: "ms", better: "lower" },
    );
    if (w.transactions !== null)
      results.push({
        name: `${name}: database transactions per sweep`,
        value: Math.round((w.transactions / w.count) * 10) / 10,
        unit: "tx",
        better: "lower",
      });
  }
  writeResults("schedules", results);
}
