// Races that PGlite's single connection would hide, on a real PostgreSQL server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import type { Transaction } from "../../lib/bank-api/history.ts";
import type { PaymentRecord } from "../../lib/bank-api/payments.ts";
import { newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";

describe.skipIf(!PG_URL)("payments on PostgreSQL under concurrency", () => {
  let bank: TestBank;
  beforeAll(async () => {
    bank = await startTestBank({ postgres: true, env: { BANK_DB_POOL: "20" } });
  });
  afterAll(() => bank?.close());

  it("lets exactly one of approve and cancel win on one payment, every round", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const rounds = 60;
    let approvals = 0;
    let cancels = 0;
    for (let i = 0; i < rounds; i++) {
      const w = await sandbox(bank, "POST", "/sandbox/incoming-wires", { accountNumber: acct, amount: 10 });
      const query = (action: string) => ({
        account_number: acct,
        payment_id: w.payment_id,
        action,
        timestamp: w.payment_timestamp,
      });
      const [a, b] = await Promise.all([
        c.api("PUT", "/v2/payment", { query: query("approve") }),
        c.api("PUT", "/v2/payment", { query: query("cancel") }),
      ]);
      const winners = [a, b].filter((r) => r.status === 200);
      const losers = [a, b].filter((r) => r.status === 400);
      expect(winners, `round ${i}`).toHaveLength(1);
      expect(losers, `round ${i}`).toHaveLength(1);
      const final = await c.api("GET", "/v2/payment", {
        query: { account_number: acct, payment_id: w.payment_id },
      });
      expect(final.json[0].payment_status).toBe(winners[0].json.payment_status);
      expect(final.json[0].time_stamp).toBe(winners[0].json.payment_timestamp);
      if (winners[0] === a) approvals++;
      else cancels++;
    }
    expect(approvals + cancels).toBe(rounds);
  });

  it("creates a return wire only when return wins against approve", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    let returns = 0;
    const incoming: string[] = [];
    for (let i = 0; i < 30; i++) {
      const w = await sandbox(bank, "POST", "/sandbox/incoming-wires", { accountNumber: acct, amount: 1 });
      incoming.push(w.payment_id);
      const query = (action: string) => ({
        account_number: acct,
        payment_id: w.payment_id,
        action,
        timestamp: w.payment_timestamp,
      });
      const replies = await Promise.all([
        c.api("PUT", "/v2/payment", { query: query("return") }),
        c.api("PUT", "/v2/payment", { query: query("approve") }),
      ]);
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      if (replies[0].status === 200) returns++;
    }
    const list = await c.api("GET", "/v2/payment", {
      query: {
        account_number: acct,
        begin_date: new Date(Date.now() - 86400_000).toISOString().slice(0, 10),
      },
    });
    const returnWires = list.json.filter((p: PaymentRecord) => !incoming.includes(p.payment_id));
    expect(returnWires).toHaveLength(returns);
  });

  it("holds once for concurrent duplicates with one Idempotency-Key", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1_000);
    for (let round = 0; round < 5; round++) {
      const key = `7d3c9a52-1b1e-4b4c-8a3d-00000000000${round}`;
      const body = {
        originator_account_number: acct,
        amount: 10,
        beneficiary_name: "KITT M",
        beneficiary_account_number: "987654321",
        beneficiary_address1: "1 MAIN ST",
      };
      const replies = await Promise.all(
        Array.from({ length: 12 }, () =>
          c.api("POST", "/v2/payment", { body, headers: { [BANK_HEADERS.idempotencyKey]: key } }),
        ),
      );
      for (const r of replies) expect(r.status).toBe(200);
      const ids = new Set(replies.map((r) => r.json.payment_id));
      expect(ids.size).toBe(1);
      expect([...ids][0]).not.toBe("");
    }
    const bal = await c.api("GET", "/v2/account/balance", { query: { accountNumber: acct } });
    expect(bal.json.ResponseData[0]).toMatchObject({ AVAILBAL: 950, TOTALHOLDS: 50, CURRBAL: 1000 });
    const list = await c.api("GET", "/v2/payment", {
      query: {
        account_number: acct,
        begin_date: new Date(Date.now() - 86400_000).toISOString().slice(0, 10),
      },
    });
    expect(list.json).toHaveLength(5);
  });

  it("settles each wire once when the timer and the sandbox settle at the same time", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1_000);
    const body = (amount: number) => ({
      originator_account_number: acct,
      amount,
      beneficiary_name: "KITT M",
      beneficiary_account_number: "987654321",
      beneficiary_address1: "1 MAIN ST",
    });
    for (let i = 0; i < 20; i++) await c.api("POST", "/v2/payment", { body: body(10) });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => sandbox(bank, "POST", "/sandbox/settle", {})),
    );
    expect(results.reduce((n, r) => n + r.settled, 0)).toBeGreaterThanOrEqual(20);
    const bal = await c.api("GET", "/v2/account/balance", { query: { accountNumber: acct } });
    expect(bal.json.ResponseData[0]).toMatchObject({ AVAILBAL: 800, TOTALHOLDS: 0, CURRBAL: 800 });
    const hist = await c.api("GET", "/v2/account/history", { query: { accountNumber: acct } });
    expect(
      hist.json.ResponseData[0].TRANSACTION.filter((t: Transaction) => t.TRANCD === "9095"),
    ).toHaveLength(20);
  });

  it("replays the backup log once when two callers bring the wire system up together", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1_000);
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await c.api("POST", "/v2/payment/backup", {
        body: {
          originator_account_number: acct,
          amount: 100,
          beneficiary_name: "KITT M",
          beneficiary_account_number: "987654321",
          beneficiary_address1: "1 MAIN ST",
        },
      });
      ids.push(r.json.payment_id);
    }
    const ups = await Promise.all(
      Array.from({ length: 3 }, () => sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" })),
    );
    expect(ups.reduce((n, r) => n + r.replayed, 0)).toBe(10);
    const bal = await c.api("GET", "/v2/account/balance", { query: { accountNumber: acct } });
    expect(bal.json.ResponseData[0]).toMatchObject({ AVAILBAL: 0, TOTALHOLDS: 1000 });
    const list = await c.api("GET", "/v2/payment", {
      query: {
        account_number: acct,
        begin_date: new Date(Date.now() - 86400_000).toISOString().slice(0, 10),
      },
    });
    expect(list.json.map((p: PaymentRecord) => p.payment_status)).toEqual(Array(10).fill("In-Progress"));
  });
});
