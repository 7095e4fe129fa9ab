// Live balances, end to end against `npm start` (a production build): from the bank's answer to a
// SEN transfer (its 200) to the event in a browser (Chromium's EventSource on /api/events), p50
// and p99 over 200 changes — on PGlite, and with two instances on PostgreSQL where the browser is
// on the instance the bank does not post to (LISTEN/NOTIFY in between). Target: p99 under 1 s.
// Then 200 plain SSE clients on one instance: each change reaches all of them, p99 under 1.5 s.
import type { Page } from "playwright-core";
import type { AccountsResponse } from "../lib/dashboard-api/index.ts";
import { launchChromium, signIn } from "../tests/helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../tests/helpers/dashboard.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { demoBank, signInHttp, sseClient, startSecondInstance } from "../tests/helpers/live.ts";
import { type BenchResult, percentile, round, writeResults } from "./lib.ts";

const CHANGES = Number(process.env.BENCH_LIVE_CHANGES || 200);
const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS || 200);
const FANOUT_CHANGES = Number(process.env.BENCH_LIVE_FANOUT_CHANGES || 20);
const PG_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
// The fan-out below holds CLIENTS streams for one user: more than a user may hold by default.
const ENV = { BANK_TOKEN_INTERVAL_SECONDS: "1", LIVE_STREAMS_PER_USER: String(CLIENTS + 10) };

type Event = { seq: number; accountNumber: string; availableCents: number; at: number };

/** The browser side: an EventSource in the page that notes when each balance event arrived. */
async function listen(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const w = window as unknown as { liveEvents: unknown[] };
        w.liveEvents = [];
        const s = new EventSource("/api/events");
        s.onopen = () => resolve();
        s.addEventListener("balance", (e) => {
          const d = JSON.parse((e as MessageEvent<string>).data);
          w.liveEvents.push({ ...d, at: Date.now() });
        });
      }),
  );
}

/** Transfers one cent at a time and times each 200 → the browser's event of the sending account. */
async function latencies(app: RunningDashboard, page: Page, bankDir: string, n: number): Promise<number[]> {
  const bank = demoBank(bankDir);
  const accounts = (await (await page.request.get(`${app.url}/api/accounts`)).json()) as AccountsResponse;
  const [from, to] = accounts.accounts.filter((a) => a.type === "SEN");
  let balance = from.availableCents;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await bank.transfer(from.accountNumber, to.accountNumber, 0.01);
    const answered = Date.now();
    balance -= 1;
    const expected = balance;
    const arrived = await page.waitForFunction(
      ([acct, cents]) => {
        const w = window as unknown as { liveEvents: Event[] };
        return w.liveEvents.find((e) => e.accountNumber === acct && e.availableCents === cents)?.at ?? false;
      },
      [from.accountNumber, expected] as const,
      { timeout: 30_000, polling: 5 },
    );
    out.push(Math.max(0, ((await arrived.jsonValue()) as number) - answered));
  }
  return out;
}

function summary(prefix: string, values: number[], target: number): BenchResult[] {
  return [
    { name: `${prefix}_p50`, value: percentile(values, 50), unit: "ms", better: "lower" },
    { name: `${prefix}_p99`, value: percentile(values, 99), unit: "ms", better: "lower", target },
  ];
}

export async function run(): Promise<void> {
  const results: BenchResult[] = [];
  const browser = await launchChromium();
  try {
    // One instance on PGlite ---------------------------------------------------------------
    const app = await startDashboard({ env: ENV, timeoutMs: 900_000 });
    try {
      const context = await browser.newContext();
      const page = await signIn(app, context, "viewer");
      await listen(page);
      const ms = await latencies(app, page, app.dataDir, CHANGES);
      results.push(...summary("live_bank200_to_browser_pglite", ms, 1000));
      await context.close();

      // 200 plain SSE clients on this instance.
      const viewer = app.users.find((u) => u.role === "viewer") as { email: string; password: string };
      const cookie = await signInHttp(app.url, viewer.email, viewer.password);
      const clients = Array.from({ length: CLIENTS }, () => sseClient(`${app.url}/api/events`, cookie));
      await Promise.all(clients.map((c) => c.opened));
      const bank = demoBank(app.dataDir);
      const accounts = (await (
        await fetch(`${app.url}/api/accounts`, { headers: { cookie } })
      ).json()) as AccountsResponse;
      const [from, to] = accounts.accounts.filter((a) => a.type === "SEN");
      const fanout: number[] = [];
      for (let i = 0; i < FANOUT_CHANGES; i++) {
        const seen = clients.map((c) => c.messages.length);
        await bank.transfer(from.accountNumber, to.accountNumber, 0.01);
        const answered = performance.now();
        // The sending account's event: the first new message naming it, at every client.
        await Promise.all(
          clients.map((c, k) =>
            c.waitFor(
              (m) => m.slice(seen[k]).some((x) => (x.data ?? "").includes(`"${from.accountNumber}"`)),
              60_000,
            ),
          ),
        );
        for (const [k, c] of clients.entries()) {
          const m = c.messages.slice(seen[k]).find((x) => (x.data ?? "").includes(`"${from.accountNumber}"`));
          if (m) fanout.push(Math.max(0, m.at - answered));
        }
      }
      for (const c of clients) c.close();
      results.push(...summary(`live_fanout_${CLIENTS}_sse_clients`, fanout, 1500));
    } finally {
      await app.stop();
    }

    // Two instances on PostgreSQL ----------------------------------------------------------
    const database = await createTestDatabase(PG_URL);
    let a: RunningDashboard | undefined;
    let b: RunningDashboard | undefined;
    try {
      a = await startDashboard({ env: { ...ENV, DATABASE_URL: database.url }, timeoutMs: 900_000 });
      b = await startSecondInstance(a, database.url);
      const context = await browser.newContext();
      const page = await signIn(b, context, "viewer");
      await listen(page);
      const ms = await latencies(b, page, a.dataDir, CHANGES);
      results.push(...summary("live_bank200_to_browser_pg_two_instances", ms, 1000));
      await context.close();
    } finally {
      await b?.stop();
      await a?.stop();
      await database.drop();
    }
  } finally {
    await browser.close();
  }
  for (const r of results) r.value = round(r.value, 1);
  writeResults("live", results);
}
