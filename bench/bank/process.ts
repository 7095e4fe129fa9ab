// What the bank benchmark's parts share: its sizes, the SEN transfer request it sends, and a
// bank started as its own process (as `npm run bank` runs it).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { bankNodeArgs } from "../../scripts/bank-build.ts";

// BENCH_SMOKE=1 runs everything at its smallest (CI's check that the benchmark still runs; its
// figures mean nothing): 1 s loops, 500 accounts, 2 days of history, one overhead round.
export const SMOKE = process.env.BENCH_SMOKE === "1";
export const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 8));
export const ACCOUNTS = SMOKE ? 500 : 10_000;
export const HISTORY_DAYS = SMOKE ? 2 : 90;
export const HISTORY_READS = SMOKE ? 6 : 200;
export const SANDBOX_KEY = "sbx_bench_key_0123456789";

/** What the seeding leaves for the measurements: the customer's key and its accounts. */
export interface Seeded {
  key: string;
  accounts: string[];
  historyAccount: string;
  historyDays: string[];
}

/** One SEN transfer of a cent between two seeded accounts, under a fresh Idempotency-Key. */
export function transferRequest(key: string, jwt: string, from: string, to: string) {
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
export const transferOk = (r: { status: number; body: string }) =>
  r.status === 200 && r.body.includes('"ERROR":[]');

/** A bank of its own process on `port`, its URL once it answers. */
export async function spawnBank(
  env: Record<string, string>,
  port: number,
): Promise<{ url: string; child: ChildProcess }> {
  // BENCH_BANK_STDOUT: a file (such as /dev/null) for the bank's stdout instead of a pipe this
  // process drains, to tell what writing the request log costs from what draining the pipe costs.
  const stdoutFile = process.env.BENCH_BANK_STDOUT;
  // BENCH_BANK_NODE_ARGS: node flags for each bank (`--perf-basic-prof`, for `perf record` to name
  // JavaScript frames).
  const nodeArgs = (process.env.BENCH_BANK_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...(await bankNodeArgs(process.cwd()))], {
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

/** A bearer token of the seeded customer from the bank at `url`. */
export async function tokenFor(url: string, key: string): Promise<string> {
  const tok = await fetch(`${url}/v2/access/token`, { headers: { [BANK_HEADERS.subscriptionKey]: key } });
  if (tok.status !== 200) throw new Error(`token: ${tok.status}`);
  return tok.headers.get(BANK_HEADERS.authorization) as string;
}
