// Group commit of SEN transfers: transfers that queue behind busy batch slots are
// committed together, each with its own answer, and a batch that fails as a whole falls back to
// one transfer at a time without applying anything twice.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTransferExecutor, type TransferRecord } from "../../bank/ledger/transfers.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import {
  BACKENDS,
  balanceOf,
  newCustomer,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
} from "../helpers/bank.ts";

describe.each(BACKENDS)("SEN transfer group commit on $name", ({ postgres }) => {
  let bank: TestBank;
  let c: TestCustomer;
  let accounts: string[];

  beforeAll(async () => {
    bank = await startTestBank({ postgres, env: { BANK_DB_POOL: "4" } });
    c = await newCustomer(bank, "Batch Co");
    accounts = [];
    for (let i = 0; i < 6; i++) accounts.push(await c.account("SEN", 1000));
  });
  afterAll(() => bank?.close());

  const cents = async (a: string) => Math.round((await balanceOf(c, a)).AVAILBAL * 100);

  const input = (from: string, to: string, amountCents: number, extra: Partial<TransferRecord> = {}) => {
    const now = new Date();
    return {
      customer: c.customerId,
      from,
      to,
      cents: amountCents,
      key: randomUUID(),
      hash: "h",
      now: now.toISOString(),
      date: bank.running.bank.clock.businessDate(now),
      fromDesc: [`SEN to ${to}`, "", "", "", "", "", "", "", "", "", ""],
      toDesc: [`SEN from ${from}`, "", "", "", "", "", "", "", "", "", ""],
      serial1: "",
      serial2: "",
      id: `SEN${randomUUID().slice(0, 12).toUpperCase()}`,
      ...extra,
    } satisfies TransferRecord;
  };

  it("commits concurrent HTTP transfers in batches, each answered alone, the ledger exact", async () => {
    const executor = bank.running.bank.transfers;
    const before = executor.stats();
    const start = await Promise.all(accounts.map(cents));
    // 120 transfers at once over 6 accounts: two thirds from the first three to the last three,
    // one third back (both lock orders). The first three pay out far more than they hold
    // (1,000.00 each), so some transfers must be refused and batches mix answers.
    const back = (i: number) => i % 3 === 2;
    const jobs = Array.from({ length: 120 }, (_, i) => ({
      from: back(i) ? accounts[3 + ((i * 7) % 3)] : accounts[i % 3],
      to: back(i) ? accounts[(i * 5) % 3] : accounts[3 + ((i * 7) % 3)],
      amount: 400.5 + (i % 7) * 50,
      key: randomUUID(),
    }));
    const rs = await Promise.all(
      jobs.map((j) =>
        c.api("POST", "/v2/account/transfersen", {
          body: transferBody(j.from, j.to, j.amount),
          headers: { [BANK_HEADERS.idempotencyKey]: j.key },
        }),
      ),
    );
    const after = executor.stats();
    expect(after.largest).toBeGreaterThan(1);
    expect(after.batches - before.batches).toBeLessThan(120);
    expect(rs.every((r) => r.status === 200)).toBe(true);
    const ok = rs.filter((r) => r.json.ERROR.length === 0);
    const refused = rs.filter((r) => r.json.ERROR[0]?.MESSAGEID === "E0201");
    expect(ok.length + refused.length).toBe(120);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);

    // Every answer is its own: the expected net movement per account from the answers alone
    // equals what the balances show.
    const net = new Map(accounts.map((a) => [a, 0]));
    rs.forEach((r, i) => {
      if (r.json.ERROR.length) return;
      const j = jobs[i];
      const amount = Math.round(j.amount * 100);
      net.set(j.from, (net.get(j.from) ?? 0) - amount);
      net.set(j.to, (net.get(j.to) ?? 0) + amount);
    });
    const end = await Promise.all(accounts.map(cents));
    accounts.forEach((a, i) => {
      expect(end[i] - start[i]).toBe(net.get(a));
      expect(end[i]).toBeGreaterThanOrEqual(0);
    });

    // Replaying every request gives the same answer and moves nothing.
    const replays = await Promise.all(
      jobs.map((j) =>
        c.api("POST", "/v2/account/transfersen", {
          body: transferBody(j.from, j.to, j.amount),
          headers: { [BANK_HEADERS.idempotencyKey]: j.key },
        }),
      ),
    );
    replays.forEach((r, i) => {
      expect(r.text).toBe(rs[i].text);
    });
    expect(await Promise.all(accounts.map(cents))).toEqual(end);
  });

  it("settles duplicates of one key inside one batch once", async () => {
    const executor = createTransferExecutor(bank.running.bank.db, { slots: 1, maxBatch: 32 });
    const [from, to] = [accounts[0], accounts[1]];
    await bank.running.bank.db.query(
      "SELECT post_entry($1, 'C', 100000, '1100', ARRAY['TOP UP'], now(), current_date, '', '')",
      [from],
    );
    const b = [await cents(from), await cents(to)];
    const first = input(from, to, 25);
    // The first goes alone (the slot is free); the other 10 queue and go as one batch.
    const rs = await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        executor.execute(i === 0 ? first : { ...first, id: `SENDUP${i}` }),
      ),
    );
    expect(executor.stats()).toMatchObject({ batches: 2, largest: 10, fallbacks: 0 });
    expect(rs[0]).toMatchObject({ code: "ok", transferId: first.id });
    for (const r of rs.slice(1)) expect(r).toMatchObject({ code: "ok", transferId: first.id, replay: true });
    expect(await cents(from)).toBe(b[0] - 25);
    expect(await cents(to)).toBe(b[1] + 25);
  });

  it("retries a failed batch one transfer at a time: the bad one fails alone, the rest apply once", async () => {
    const executor = createTransferExecutor(bank.running.bank.db, { slots: 1, maxBatch: 32 });
    const [x, y, z] = [accounts[3], accounts[4], accounts[5]];
    await bank.running.bank.db.query(
      "SELECT post_entry($1, 'C', 100000, '1100', ARRAY['TOP UP'], now(), current_date, '', '')",
      [x],
    );
    const b = await Promise.all([x, y, z].map(cents));
    const head = input(x, y, 1);
    // A NUL cannot be stored in PostgreSQL text: this transfer's statement fails, and with it the
    // batch it is in. (The HTTP contract refuses control characters before they get here.)
    const bad = input(x, z, 500, { serial1: "bad\u0000serial" });
    const good = Array.from({ length: 5 }, () => input(x, y, 100));
    const settled = await Promise.allSettled([head, bad, ...good].map((t) => executor.execute(t)));
    expect(executor.stats()).toMatchObject({ batches: 2, largest: 6, fallbacks: 1 });
    expect(settled[0]).toMatchObject({ status: "fulfilled", value: { code: "ok" } });
    expect(settled[1].status).toBe("rejected");
    for (const s of settled.slice(2)) expect(s).toMatchObject({ status: "fulfilled", value: { code: "ok" } });
    expect(await cents(x)).toBe(b[0] - 1 - 500);
    expect(await cents(y)).toBe(b[1] + 1 + 500);
    expect(await cents(z)).toBe(b[2]);
    const entries = await bank.running.bank.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_entries WHERE transfer_id = ANY($1)",
      [[head, bad, ...good].map((t) => t.id)],
    );
    expect(entries[0].n).toBe(2 * 6);
  });
});
