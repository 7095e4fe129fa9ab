// The bank benchmark's data: 10,000 funded SEN accounts and one account holding 90 days of 5,000
// entries a day, written in bulk into a bank started in this process; the SQL ceiling is measured
// on it before it closes.
import { startBank } from "../../bank/app.ts";
import { loadBankConfig } from "../../bank/config.ts";
import { createCustomer } from "../../bank/sandbox/core.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import type { BenchResult } from "../lib.ts";
import { sqlCeiling } from "./ceiling.ts";
import { ACCOUNTS, HISTORY_DAYS, SANDBOX_KEY, type Seeded } from "./process.ts";

export async function seed(env: Record<string, string>): Promise<{ seeded: Seeded; ceiling: BenchResult[] }> {
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
    // Write the bulk load's dirty pages out now: PGlite has no background writer, so the
    // ceiling's loop would otherwise pay for them page by page.
    await db.query("CHECKPOINT");

    const ceiling = await sqlCeiling(db, { customerId, accounts, opened, pg: !!env.BANK_DATABASE_URL });
    return { seeded: { key: subscriptionKey, accounts, historyAccount, historyDays }, ceiling };
  } finally {
    await running.close();
  }
}
