// The bank benchmark: SEN transfers through HTTP with 10,000 accounts and with 10 hot accounts,
// the same transfer SQL called in a loop without HTTP (the ceiling), latency at 1,000 transfers/s
// offered, history reads over an account holding 90 days of 5,000 a day, and what logs and metrics
// cost. Runs on PGlite and, when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set, on PostgreSQL.
// Its parts are in bench/bank/: the data (seed.ts), the ceiling (ceiling.ts), the HTTP transfers
// (transfers.ts), history (history.ts), logs and metrics (observability.ts), and what they share
// (process.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { historyReads } from "./bank/history.ts";
import { observabilityOverhead } from "./bank/observability.ts";
import { spawnBank, tokenFor } from "./bank/process.ts";
import { seed } from "./bank/seed.ts";
import { httpTransfers } from "./bank/transfers.ts";
import { type BenchResult, mergeResults, writeResults } from "./lib.ts";
import { requester } from "./support/load.ts";

/** BENCH_BANK_ONLY=observability measures only what logs and metrics cost (kept beside the rest). */
const OBSERVABILITY_ONLY = process.env.BENCH_BANK_ONLY === "observability";

async function measure(label: string, env: Record<string, string>): Promise<BenchResult[]> {
  console.log(`seeding ${label}…`);
  const { seeded, ceiling } = await seed(env);
  const { url, child } = await spawnBank(env, 4700 + Math.floor(Math.random() * 200));
  const results: BenchResult[] = [];
  let jwt: string;
  try {
    jwt = await tokenFor(url, seeded.key);
    // Alone, the token's bank stops before the comparison starts its own banks.
    if (!OBSERVABILITY_ONLY) {
      const send = requester(url, 64);
      results.push(...(await httpTransfers(label, send, child, seeded, jwt, ceiling)));
      results.push(...(await historyReads(label, send, seeded, jwt)));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  results.push(...(await observabilityOverhead(label, env, seeded, jwt)));
  return results;
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
