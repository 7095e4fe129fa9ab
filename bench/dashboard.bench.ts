// The dashboard's cost over the bank, measured in one run against `npm start` (a production
// build): the same balance read through the dashboard's route handler (with a session cookie)
// and straight from the bank (added p50, target under 5 ms; requests/s through the dashboard,
// target 500/s; their ratio), and each page's first-load JavaScript, gzip-compressed
// (the chunks its HTML loads; target under 200 kB).
import http from "node:http";
import os from "node:os";
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import { startDashboard } from "../tests/helpers/dashboard.ts";
import { readDemoKeys, signInHttp } from "../tests/helpers/live.ts";
import { childGroup, firstLoadJsResults, groupCpuSeconds, percentile, round, writeResults } from "./lib.ts";

const DIST = process.env.NEXT_DIST_DIR || ".next-bench";
const SAMPLES = Number(process.env.BENCH_SAMPLES || 1000);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 32);

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
      );
    });
    req.on("error", reject);
  });
}

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const t = performance.now();
  const r = await get(url, headers);
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${r.body.toString().slice(0, 200)}`);
  return performance.now() - t;
}

async function throughput(url: string, headers: Record<string, string>): Promise<number> {
  const end = performance.now() + LOAD_SECONDS * 1000;
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const r = await get(url, headers);
        if (r.status === 200) done++;
        else failed++;
      }
    }),
  );
  if (failed) console.warn(`${failed} requests to ${url} failed during the load run`);
  return done / LOAD_SECONDS;
}

export async function run(): Promise<void> {
  // The start script itself (not npm), so that the bank's and the dashboard's processes are its
  // children and their CPU time can be read.
  const stack = await startDashboard({ env: { NEXT_DIST_DIR: DIST }, via: "node", timeoutMs: 900_000 });
  try {
    const users = Object.fromEntries(stack.users.map((u) => [u.role, u]));
    const demo = readDemoKeys(stack.dataDir);
    // The direct reader takes the key's token first; moving the bank's clock 5 minutes on lets
    // the dashboard have its own (one token per key per 5 minutes).
    const tokenRes = await fetch(`${demo.bankUrl}/v2/access/token`, {
      headers: { [BANK_HEADERS.subscriptionKey]: demo.subscriptionKey },
    });
    const token = tokenRes.headers.get(BANK_HEADERS.authorization) as string;
    await fetch(`${demo.bankUrl}/sandbox/clock`, {
      method: "POST",
      headers: { [BANK_HEADERS.sandboxKey]: demo.sandboxKey, "content-type": "application/json" },
      body: JSON.stringify({ advanceSeconds: 301 }),
    });
    const cookie = await signInHttp(stack.url, users.admin.email, users.admin.password);
    const accounts = JSON.parse((await get(`${stack.url}/api/accounts`, { cookie })).body.toString()) as {
      accounts: { accountNumber: string }[];
    };
    const n = accounts.accounts[0].accountNumber;
    const viaDashboard = { url: `${stack.url}/api/accounts/${n}/balance`, headers: { cookie } };
    const direct = {
      url: `${demo.bankUrl}/v2/account/balance?accountNumber=${n}`,
      headers: { [BANK_HEADERS.subscriptionKey]: demo.subscriptionKey, [BANK_HEADERS.authorization]: token },
    };

    for (let i = 0; i < 100; i++) {
      await timed(viaDashboard.url, viaDashboard.headers);
      await timed(direct.url, direct.headers);
    }
    const dash: number[] = [];
    const bank: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      dash.push(await timed(viaDashboard.url, viaDashboard.headers));
      bank.push(await timed(direct.url, direct.headers));
    }
    // The start script's two children, each the leader of its process group, found by the script
    // each runs: the dashboard runs Next inside scripts/dashboard-server.js, so no "next" is in
    // its command line. A program not found fails the run rather than writing NaN as its figure.
    const groupOf = (program: string, script: RegExp) => {
      const group = childGroup(stack.pid, script);
      if (group === null)
        throw new Error(`the ${program}'s process is not among the start script's children`);
      return group;
    };
    const dashGroup = groupOf("dashboard", /scripts\/dashboard-server\.js/);
    const bankGroup = groupOf("bank", /bank-main\.mjs/);
    const cpu = () => ({ dash: groupCpuSeconds(dashGroup), bank: groupCpuSeconds(bankGroup) });
    const c0 = cpu();
    const dashRps = await throughput(viaDashboard.url, viaDashboard.headers);
    const c1 = cpu();
    const bankRps = await throughput(direct.url, direct.headers);
    const c2 = cpu();
    const dashCpuMs = ((c1.dash - c0.dash) * 1000) / (dashRps * LOAD_SECONDS);
    const bankCpuMs = ((c2.bank - c1.bank) * 1000) / (bankRps * LOAD_SECONDS);
    const bankCpuMsInDashRun = ((c1.bank - c0.bank) * 1000) / (dashRps * LOAD_SECONDS);

    const pages = ["/sign-in", "/accounts", `/accounts/${n}`, "/profile", "/admin/users", "/admin/audit"];
    // Named by the route: /accounts/[accountNumber] is accounts_[accountNumber].
    const routeName = (p: string) =>
      p
        .replace(`/${n}`, "/[accountNumber]")
        .replace(/[^a-z[\]]+/gi, "_")
        .replace(/^_|_$/g, "");
    const js = await firstLoadJsResults(
      stack.url,
      pages.map((p): [string, string] => [routeName(p), p]),
      cookie,
    );

    const p50d = percentile(dash, 50);
    const p50b = percentile(bank, 50);
    writeResults("dashboard", [
      {
        name: "balance_added_p50_dashboard_over_bank",
        value: round(p50d - p50b, 2),
        unit: "ms",
        better: "lower",
        target: 5,
        note: `${SAMPLES} sequential reads each, interleaved, keep-alive`,
      },
      { name: "balance_p50_via_dashboard", value: p50d, unit: "ms", better: "lower" },
      { name: "balance_p99_via_dashboard", value: percentile(dash, 99), unit: "ms", better: "lower" },
      { name: "balance_p50_bank_direct", value: p50b, unit: "ms", better: "lower" },
      {
        name: "balance_throughput_via_dashboard",
        value: round(dashRps, 0),
        unit: "requests/s",
        better: "higher",
        target: 500,
        note: `${CONCURRENCY} concurrent clients for ${LOAD_SECONDS} s on ${os.cpus().length} cores (bank and dashboard on the same machine; load average ${os.loadavg()[0].toFixed(1)} at the end)`,
      },
      {
        name: "balance_throughput_bank_direct",
        value: round(bankRps, 0),
        unit: "requests/s",
        better: "higher",
      },
      {
        name: "balance_cpu_per_request_dashboard",
        value: round(dashCpuMs, 2),
        unit: "ms",
        better: "lower",
        note: "CPU time of the dashboard's processes per balance read (its own work, the bank's excluded)",
      },
      { name: "balance_cpu_per_request_bank", value: round(bankCpuMs, 2), unit: "ms", better: "lower" },
      {
        name: "balance_throughput_via_dashboard_cpu_bound_estimate",
        value: round((os.cpus().length * 1000) / (dashCpuMs + bankCpuMsInDashRun), 0),
        unit: "requests/s",
        better: "higher",
        target: 500,
        note: "cores divided by the CPU per request of dashboard plus bank: the rate with the machine to themselves",
      },
      {
        name: "balance_throughput_dashboard_vs_bank",
        value: round(dashRps / bankRps, 2),
        unit: "ratio",
        better: "higher",
      },
      ...js,
    ]);
  } finally {
    await stack.stop();
    agent.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
