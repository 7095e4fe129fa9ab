// Races that PGlite's single connection would hide, on a real PostgreSQL server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  balanceOf,
  newCustomer,
  sameTransferAtOnce,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
} from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";

describe.skipIf(!PG_URL)("concurrency on PostgreSQL", () => {
  let bank: TestBank;
  let c: TestCustomer;
  let accounts: string[];

  beforeAll(async () => {
    bank = await startTestBank({ postgres: true, env: { BANK_DB_POOL: "20" } });
    c = await newCustomer(bank, "Race Co");
    accounts = [];
    for (let i = 0; i < 10; i++) accounts.push(await c.account("SEN", 100));
  });
  afterAll(() => bank?.close());

  const total = async () => {
    let cents = 0;
    for (const a of accounts) cents += Math.round((await balanceOf(c, a)).AVAILBAL * 100);
    return cents;
  };

  it("keeps the total, never goes negative and writes two entries per transfer under 100 concurrent transfers", async () => {
    const before = await total();
    // Amounts large enough that some transfers must be refused for funds, and pairs in both
    // directions so that lock ordering is exercised.
    const jobs = Array.from({ length: 100 }, (_, i) => {
      const from = accounts[i % 10];
      const to = accounts[(i * 7 + 3) % 10] === from ? accounts[(i + 1) % 10] : accounts[(i * 7 + 3) % 10];
      return { from, to, amount: 10 + (i % 9) * 7.25 };
    });
    const results = await Promise.all(
      jobs.map((j) =>
        c.api("POST", "/v2/account/transfersen", { body: transferBody(j.from, j.to, j.amount) }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ok = results.filter((r) => r.json.ERROR.length === 0).length;
    const refused = results.filter((r) => r.json.ERROR[0]?.MESSAGEID === "E0201").length;
    expect(ok + refused).toBe(100);
    expect(ok).toBeGreaterThan(0);
    expect(await total()).toBe(before);
    for (const a of accounts) expect((await balanceOf(c, a)).AVAILBAL).toBeGreaterThanOrEqual(0);

    const db = bank.running.bank.db;
    const pairs = await db.query<{ transfer_id: string; n: number; d: number; c: number }>(
      `SELECT transfer_id, count(*)::int AS n, count(*) FILTER (WHERE dr_cr = 'D')::int AS d, count(*) FILTER (WHERE dr_cr = 'C')::int AS c
       FROM ledger_entries WHERE transfer_id IS NOT NULL GROUP BY transfer_id`,
    );
    expect(pairs).toHaveLength(ok);
    expect(pairs.every((p) => p.n === 2 && p.d === 1 && p.c === 1)).toBe(true);
    // Every account's balance equals the sum of its ledger.
    const mismatched = await db.query(
      `SELECT a.number FROM accounts a LEFT JOIN ledger_entries e ON e.account_number = a.number
       GROUP BY a.number, a.available_cents
       HAVING a.available_cents <> coalesce(sum(CASE WHEN e.dr_cr = 'C' THEN e.amount_cents ELSE -e.amount_cents END), 0)`,
    );
    expect(mismatched).toEqual([]);
  });

  it("moves money once for 50 concurrent duplicates with one Idempotency-Key", async () => {
    const [from, to] = [accounts[0], accounts[1]];
    await bank.running.bank.db.query(
      "SELECT post_entry($1, 'C', 100000, '1100', ARRAY['TOP UP'], now(), current_date, '', '')",
      [from],
    );
    const before = [(await balanceOf(c, from)).AVAILBAL, (await balanceOf(c, to)).AVAILBAL];
    const key = "7d1e8f0a-5555-4c3b-8a2e-0123456789ab";
    const results = await sameTransferAtOnce(c, 50, transferBody(from, to, 3.33), key);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results[0].json.ERROR).toEqual([]);
    const after = [(await balanceOf(c, from)).AVAILBAL, (await balanceOf(c, to)).AVAILBAL];
    expect(Math.round((before[0] - after[0]) * 100)).toBe(333);
    expect(Math.round((after[1] - before[1]) * 100)).toBe(333);
    const entries = await bank.running.bank.db.query(
      "SELECT id FROM ledger_entries WHERE idempotency_key = $1",
      [key],
    );
    expect(entries).toHaveLength(2);
  });

  it("does not deadlock when two accounts pay each other at the same time", async () => {
    const [x, y] = [accounts[2], accounts[3]];
    await bank.running.bank.db.query(
      "SELECT post_entry($1, 'C', 100000, '1100', ARRAY['TOP UP'], now(), current_date, '', ''), post_entry($2, 'C', 100000, '1100', ARRAY['TOP UP'], now(), current_date, '', '')",
      [x, y],
    );
    const rs = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        c.api("POST", "/v2/account/transfersen", {
          body: i % 2 ? transferBody(x, y, 1) : transferBody(y, x, 1),
        }),
      ),
    );
    expect(rs.every((r) => r.status === 200 && r.json.ERROR.length === 0)).toBe(true);
  });
});
