// The embedded database's autovacuum: PGlite runs none of its own, so the bank analyzes and
// vacuums tables past PostgreSQL's default thresholds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maintainTables } from "../../bank/db/maintenance.ts";
import { newCustomer, startTestBank, type TestBank, transferBody } from "../helpers/bank.ts";

let bank: TestBank;
beforeAll(async () => {
  bank = await startTestBank();
});
afterAll(() => bank?.close());

interface Stat {
  relname: string;
  live: number;
  dead: number;
  changed: number;
  analyzed: boolean;
}

const stats = () =>
  bank.running.bank.db.query<Stat>(
    `SELECT relname, n_live_tup::int AS live, n_dead_tup::int AS dead, n_mod_since_analyze::int AS changed,
            (last_analyze IS NOT NULL) AS analyzed
     FROM pg_stat_user_tables WHERE schemaname = 'public'`,
  );

describe("embedded table maintenance", () => {
  it("measures grown tables and vacuums dead rows, after which a second pass has nothing to do", async () => {
    const c = await newCustomer(bank, "Busy Co");
    const [a, b] = [await c.account("SEN", 1000), await c.account("SEN", 1000)];
    // 300 transfers: 600 ledger rows and 600 row versions of two accounts left dead.
    for (let i = 0; i < 300; i++) {
      const r = await c.api("POST", "/v2/account/transfersen", {
        body: i % 2 ? transferBody(a, b, 1.25) : transferBody(b, a, 1.25),
      });
      expect(r.json.ERROR).toEqual([]);
    }
    // A backend passes its counts to the statistics at most once a second: wait until they show.
    for (let i = 0; i < 100; i++) {
      const ledger = (await stats()).find((t) => t.relname === "ledger_entries");
      if (ledger && ledger.live >= 600) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await maintainTables(bank.running.bank);
    const after = await stats();
    const table = (name: string) => after.find((t) => t.relname === name) as Stat;
    // The ledger grew from nothing: measured. The two accounts' 600 dead row versions: vacuumed.
    expect(table("ledger_entries").analyzed).toBe(true);
    expect(table("accounts").dead).toBeLessThanOrEqual(50 + 0.2 * table("accounts").live);
    expect(await maintainTables(bank.running.bank)).toEqual([]);
  });

  it("runs on its own timer on PGlite", async () => {
    // The pass above left nothing to do; new changes past the threshold are picked up without a call.
    const db = bank.running.bank.db;
    await db.query("CREATE TABLE IF NOT EXISTS maintenance_probe (n int)");
    await db.query("INSERT INTO maintenance_probe SELECT g FROM generate_series(1, 500) g");
    const analyzed = async () =>
      (
        await db.query<{ analyzed: boolean }>(
          "SELECT (last_analyze IS NOT NULL) AS analyzed FROM pg_stat_user_tables WHERE relname = 'maintenance_probe'",
        )
      )[0]?.analyzed;
    for (let i = 0; i < 80 && !(await analyzed()); i++) await new Promise((r) => setTimeout(r, 250));
    expect(await analyzed()).toBe(true);
  });
});
