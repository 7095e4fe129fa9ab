// SEN transfers through HTTP (token and Idempotency-Key included): spread over 10,000 accounts and
// on 10 hot accounts in a closed loop, the server side's CPU per transfer, latency at 1,000
// transfers/s offered, and how close HTTP comes to the SQL ceiling.
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import { type BenchResult, commandCpuSeconds, percentile, processCpuSeconds, round } from "../lib.ts";
import { closedLoop, openLoop, type requester } from "../support/load.ts";
import { SECONDS, type Seeded, SMOKE, transferOk, transferRequest } from "./process.ts";

export async function httpTransfers(
  label: string,
  send: ReturnType<typeof requester>,
  bank: ChildProcess,
  seeded: Seeded,
  jwt: string,
  ceiling: BenchResult[],
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const tag = (n: string) => n.replace("{db}", label);
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
    bank: processCpuSeconds(bank.pid as number),
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
  return results;
}
