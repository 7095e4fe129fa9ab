// Statement exports over the benchmark's history account (90 days of 5,000 entries a day): time to
// the last byte and the exporting process's memory (peak growth of its JavaScript heap in use, the
// figure the 100 MB target is judged on; its resident memory; and, in a second run forcing a full
// collection every half second, the most heap it holds), BAI2 and camt.053, on PGlite and (with
// TEST_DATABASE_URL) PostgreSQL. Targets 15 s and 100 MB. STATEMENTS_BENCH_DAYS and
// STATEMENTS_BENCH_PER_DAY make a smaller history for a quick look.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startBank } from "../bank/app.ts";
import { loadBankConfig } from "../bank/config.ts";
import { createCustomer } from "../bank/sandbox/core.ts";
import { addDays } from "../lib/bank-api/dates.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { type BenchResult, round, writeResults } from "./lib.ts";

const DAYS = Number(process.env.STATEMENTS_BENCH_DAYS || 90);
const PER_DAY = Number(process.env.STATEMENTS_BENCH_PER_DAY || 5000);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

async function onBackend(name: string, env: Record<string, string>): Promise<BenchResult[]> {
  const running = await startBank(
    loadBankConfig({
      ...env,
      BANK_PORT: "0",
      BANK_SANDBOX_KEY: "sbx_bench_statements_0123",
      // Each export runs in a fresh process that asks for its own token.
      BANK_TOKEN_INTERVAL_SECONDS: "0",
    }),
    {
      quiet: true,
    },
  );
  const { db, clock } = running.bank;
  const results: BenchResult[] = [];
  try {
    const { customerId, subscriptionKey } = await createCustomer(db, { name: "Bench Statements Inc" });
    const today = clock.businessDate();
    const account = "2999999998";
    await db.query(
      `INSERT INTO accounts (number, customer_id, type, title_lines, short_name, opened_on, available_cents, current_cents)
       VALUES ($1, $2, 'SEN', ARRAY['BENCH STATEMENTS INC'], 'BENCH HIST', $3, 0, 0)`,
      [account, customerId, addDays(today, -DAYS - 1)],
    );
    for (let d = DAYS; d >= 1; d--) {
      const day = addDays(today, -d);
      await db.query(
        `INSERT INTO ledger_entries (account_number, posted_at, tran_date, amount_cents, dr_cr, tran_code, descriptions, available_after_cents, memo_post)
         SELECT $1, $2::timestamptz + make_interval(secs => g), $3, 100 + g, 'C', '9084',
                ARRAY['SEN from 2000000001', 'BATCH ' || g, '', '', '', '', '', '', '', '', ''], 1000 * g, false
         FROM generate_series(1, $4::int) g`,
        [account, `${day}T12:00:00Z`, day, PER_DAY],
      );
    }
    // The balance the entries add up to, so each day's balances are those of a real account.
    await db.query(
      `UPDATE accounts SET current_cents = s, available_cents = s
       FROM (SELECT coalesce(sum(amount_cents), 0) AS s FROM ledger_entries WHERE account_number = $1) t WHERE number = $1`,
      [account],
    );
    await db.query("ANALYZE");
    interface Export {
      seconds: number;
      bytes: number;
      rssStartMb: number;
      rssGrowthMb: number;
      heapStartMb: number;
      peakHeapGrowthMb: number;
      liveHeapGrowthMb: number | null;
    }
    const exportOnce = async (format: string, liveGcMs?: number): Promise<Export> => {
      // Asynchronously: the bank serving the export lives in this process.
      const { stdout: out } = await promisify(execFile)(
        process.execPath,
        [
          "--conditions=react-server",
          "--expose-gc",
          "--import",
          "tsx",
          path.join(root, "bench/support/statements-export.ts"),
        ],
        {
          cwd: root,
          encoding: "utf8",
          env: {
            ...process.env,
            NODE_ENV: "production",
            BENCH_BANK_URL: running.url,
            BENCH_KEY: subscriptionKey,
            BENCH_ACCOUNT: account,
            BENCH_FROM: addDays(today, -DAYS),
            BENCH_TO: addDays(today, -1),
            BENCH_FORMAT: format,
            ...(liveGcMs ? { BENCH_LIVE_GC_MS: String(liveGcMs) } : {}),
          },
          maxBuffer: 1 << 20,
        },
      );
      return JSON.parse(out.trim().split("\n").at(-1) as string) as Export;
    };
    for (const format of ["bai2", "camt053"] as const) {
      // The figures of time, resident memory and peak heap come from a run left to the collector's
      // own pace; the heap held, from a second run that forces a full collection every 500 ms.
      const r = await exportOnce(format);
      const live = await exportOnce(format, 500);
      const note = `${DAYS} days × ${PER_DAY} entries, ${round(r.bytes / 2 ** 20)} MiB written`;
      const starts = `heap in use ${round(r.heapStartMb)} MB and resident ${round(r.rssStartMb)} MB at the start`;
      results.push(
        {
          name: `statement_${format}_${DAYS}d_${name}_seconds`,
          value: round(r.seconds, 2),
          unit: "s",
          better: "lower",
          target: 15,
          note,
        },
        {
          name: `statement_${format}_${DAYS}d_${name}_heap_peak_growth`,
          value: round(r.peakHeapGrowthMb),
          unit: "MB",
          better: "lower",
          target: 100,
          note: `${note}; ${starts}`,
        },
        {
          name: `statement_${format}_${DAYS}d_${name}_heap_after_full_gc`,
          value: round(live.liveHeapGrowthMb ?? 0),
          unit: "MB",
          better: "lower",
          note: `${note}; the most heap in use just after a full collection (forced every 500 ms), over the start; that run took ${round(live.seconds, 2)} s`,
        },
        {
          name: `statement_${format}_${DAYS}d_${name}_rss_growth`,
          value: round(r.rssGrowthMb),
          unit: "MB",
          better: "lower",
          note: `${note}; ${starts}; moves with the dashboard database's own memory (PGlite, in the process)`,
        },
      );
    }
  } finally {
    await running.close();
  }
  return results;
}

export async function run(): Promise<void> {
  const results: BenchResult[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statements-bench-bank-"));
  try {
    results.push(...(await onBackend("pglite", { BANK_DATA_DIR: dir })));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.TEST_DATABASE_URL) {
    const d = await createTestDatabase(process.env.TEST_DATABASE_URL);
    try {
      results.push(...(await onBackend("postgres", { BANK_DATABASE_URL: d.url })));
    } finally {
      await d.drop();
    }
  }
  writeResults("statements", results);
}
