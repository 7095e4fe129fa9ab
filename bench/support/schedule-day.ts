// One business day's schedule run, measured: BENCH_SCHEDULE_SERIES active series (all due today,
// SEN transfers between two accounts of one customer), then BENCH_SCHEDULE_SWEEPS approved sweeps
// (each an empty account kept in a band from a funding account of its own: every one moves) on a
// fresh dashboard database (PGlite, or PostgreSQL with BENCH_SCHEDULE_DATABASE_URL) against a real
// bank; prints one JSON line. Run under `--conditions=react-server` (the engine is server-only code).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createUser } from "../../lib/auth/users.ts";
import { BankClient } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { type Schedule, toRule } from "../../lib/calendar/recurrence.ts";
import { openDashboardDb } from "../../lib/db/client.ts";
import { bankBusinessDate, runSchedules } from "../../lib/schedules/engine.ts";
import { runSweeps } from "../../lib/schedules/sweep-engine.ts";
import { newCustomer, startTestBank } from "../../tests/helpers/bank.ts";
import { createTestDatabase } from "../../tests/helpers/databases.ts";

const SERIES = Number(process.env.BENCH_SCHEDULE_SERIES || 10_000);
const SWEEPS = Number(process.env.BENCH_SCHEDULE_SWEEPS || 100);
const adminUrl = process.env.BENCH_SCHEDULE_DATABASE_URL;

async function statements(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const r = await c.query(
    "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()",
  );
  await c.end();
  return Number(r.rows[0].n);
}

const bank = await startTestBank({ env: { BANK_TOKEN_INTERVAL_SECONDS: "0", BANK_LOG_REQUESTS: "0" } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-schedules-"));
const made = adminUrl ? await createTestDatabase(adminUrl) : null;
const db = made
  ? await openDashboardDb({ url: made.url, poolSize: 8 })
  : await openDashboardDb({ dataDir: path.join(dir, "db") });
try {
  const customer = await newCustomer(bank);
  const from = await customer.account("SEN", 100_000_000);
  const to = await customer.account("SEN", 0);
  const client = new BankClient({
    bankUrl: bank.url,
    subscriptionKey: customer.key,
    tokens: new TokenManager({ db, bankUrl: bank.url, subscriptionKey: customer.key }),
  });
  const today = (await bankBusinessDate(client, "America/New_York")) as string;
  const { rollToBusinessDay } = await import("../../lib/bank-api/business-days.ts");
  const payDay = rollToBusinessDay(today, "preceding");
  const schedule: Schedule = {
    startsOn: payDay,
    pattern: { kind: "once" },
    count: null,
    until: null,
    roll: "following",
  };
  const rule = toRule(schedule);
  // The series are written in bulk: what is measured is the day's run, not their creation.
  for (let i = 0; i < SERIES; i += 1000) {
    const n = Math.min(1000, SERIES - i);
    const ids = Array.from({ length: n }, () => crypto.randomUUID());
    await db.query(
      `INSERT INTO payment_series (id, kind, name, from_account, amount_cents, counterparty, request, rule, roll, next_day,
         prepared_by, prepared_by_email)
       SELECT id, 'sen', 'Bench ' || id, $2, 100, $3, $4::jsonb, $5, 'following', $6, 'bench', 'bench@bench.example'
       FROM unnest($1::uuid[]) AS t(id)`,
      [
        ids,
        from,
        to,
        JSON.stringify({ AccountNumberFrom: from, AccountNumberTo: to, Amount: 1 }),
        rule,
        payDay,
      ],
    );
  }
  // The sweeps: each keeps an empty account between $1,000 and $2,000 from a funding account
  // holding $10,000, approved by one approver (a sweep needs at least one besides its preparer).
  const preparer = await createUser(db, {
    email: "sweep-preparer@bench.example",
    name: "Sweep Preparer",
    role: "preparer",
    password: "bench-password-0123",
  });
  const approver = await createUser(db, {
    email: "sweep-approver@bench.example",
    name: "Sweep Approver",
    role: "approver",
    password: "bench-password-0123",
  });
  for (let i = 0; i < SWEEPS; i++) {
    const kept = await customer.account("SEN", 0);
    const funding = await customer.account("SEN", 10_000);
    const id = crypto.randomUUID();
    await db.query(
      `INSERT INTO sweeps (id, name, account, funding_account, low_cents, high_cents, run_at, prepared_by, prepared_by_email)
       VALUES ($1, $2, $3, $4, 100000, 200000, '07:00', $5, $6)`,
      [id, `Bench ${i}`, kept, funding, preparer.id, preparer.email],
    );
    await db.query(
      "INSERT INTO sweep_approvals (sweep_id, version, approver_id, approver_email) VALUES ($1, 1, $2, $3)",
      [id, approver.id, approver.email],
    );
  }
  const measure = async <T>(work: () => Promise<T>) => {
    const txBefore = made ? await statements(made.url) : 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const report = await work();
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const txAfter = made ? await statements(made.url) : 0;
    return {
      report,
      ms: Math.round(ms),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      transactions: made ? txAfter - txBefore : null,
    };
  };
  const series = await measure(() => runSchedules(db, client, { today: payDay, batch: 100 }));
  const sweeps = await measure(() => runSweeps(db, client, { today: payDay, time: "23:59" }));
  console.log(
    JSON.stringify({
      backend: made ? "postgres" : "pglite",
      series: SERIES,
      ...series,
      sweeps: { count: SWEEPS, ...sweeps },
    }),
  );
} finally {
  await db.close();
  if (made) await made.drop();
  await bank.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
