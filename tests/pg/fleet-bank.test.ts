// Bank instances sharing one PostgreSQL database: the sandbox clock moved on one is the clock of
// every other from their next request (tokens, business dates), and an instance whose pool holds
// a single connection starts and serves a transfer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBankConfig } from "../../bank/config.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { call, newCustomer, sandbox, startTestBank, type TestBank, transferBody } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";

/** Starting must end one way or the other: a start that waits for itself fails here instead. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} not done in ${ms} ms`)), ms).unref(),
    ),
  ]);
}

describe.skipIf(!PG_URL)("two bank instances on one PostgreSQL database", () => {
  let a: TestBank;
  let b: TestBank;
  beforeAll(async () => {
    // A key may have a new token every second here: each instance issues its own below.
    const env = { BANK_TOKEN_INTERVAL_SECONDS: "1" };
    a = await startTestBank({ postgres: true, env });
    b = await startTestBank({ databaseUrl: a.databaseUrl, env });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("sees the clock moved on one instance on the other, as soon as the call returned", async () => {
    const c = await newCustomer(a, "Clock Co");
    const [from, to] = [await c.account("SEN", 100), await c.account("SEN", 0)];
    const twoDays = 2 * 86_400;
    const moved = await call(a.url, "POST", "/sandbox/clock", {
      body: { advanceSeconds: twoDays },
      headers: { [BANK_HEADERS.sandboxKey]: a.sandboxKey },
    });
    expect(moved.status).toBeLessThan(300);

    // A token issued by each instance now is good on the other: both count from the same time.
    await new Promise((r) => setTimeout(r, 1100));
    const fromB = await call(b.url, "GET", "/v2/access/token", {
      headers: { [BANK_HEADERS.subscriptionKey]: c.key },
    });
    expect(fromB.status).toBe(200);
    const tokenB = fromB.headers.get("authorization") as string;
    const onA = await call(a.url, "POST", "/v2/account/transfersen", {
      body: transferBody(from, to, 1.25),
      headers: { [BANK_HEADERS.subscriptionKey]: c.key, Authorization: tokenB },
    });
    expect(onA.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const fromA = await call(a.url, "GET", "/v2/access/token", {
      headers: { [BANK_HEADERS.subscriptionKey]: c.key },
    });
    expect(fromA.status).toBe(200);
    const onB = await call(b.url, "POST", "/v2/account/transfersen", {
      body: transferBody(from, to, 2.5),
      headers: {
        [BANK_HEADERS.subscriptionKey]: c.key,
        Authorization: fromA.headers.get("authorization") as string,
      },
    });
    expect(onB.status).toBe(200);

    // The two transfers, one through each instance, carry the same business date, two days on.
    const rows = await a.running.bank.db.query<{ tran_date: string; posted_at: Date }>(
      "SELECT tran_date::text, posted_at FROM ledger_entries WHERE account_number = $1 AND dr_cr = 'D' ORDER BY id",
      [from],
    );
    expect(rows).toHaveLength(2);
    expect(rows[1].tran_date).toBe(rows[0].tran_date);
    for (const r of rows)
      expect(new Date(r.posted_at).getTime()).toBeGreaterThan(Date.now() + twoDays * 1000 - 3_600_000);
    expect(b.running.bank.clock.businessDate()).toBe(rows[0].tran_date);
  });
});

describe.skipIf(!PG_URL)("a bank with a pool of one connection", () => {
  let bank: TestBank | undefined;
  afterAll(async () => {
    await bank?.close();
  });

  it("starts and serves a transfer with BANK_DB_POOL=1", async () => {
    bank = await within(60_000, "start", startTestBank({ postgres: true, env: { BANK_DB_POOL: "1" } }));
    const c = await newCustomer(bank, "Pool Of One Co");
    const [from, to] = [await c.account("SEN", 100), await c.account("SEN", 0)];
    const r = await within(
      30_000,
      "transfer",
      c.api("POST", "/v2/account/transfersen", { body: transferBody(from, to, 40) }),
    );
    expect(r.status).toBe(200);
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: to, amount: 1 });
    const balances = await bank.running.bank.db.query<{ number: string; available_cents: number }>(
      "SELECT number, available_cents FROM accounts WHERE number = ANY($1) ORDER BY number",
      [[from, to]],
    );
    expect(Object.fromEntries(balances.map((x) => [x.number, x.available_cents]))).toEqual({
      [from]: 6000,
      [to]: 4100,
    });
  });
});

describe("the bank's pool size", () => {
  it("refuses BANK_DB_POOL=0 at start, naming it", () => {
    expect(() => loadBankConfig({ BANK_DB_POOL: "0" })).toThrow(/BANK_DB_POOL/);
    expect(loadBankConfig({ BANK_DB_POOL: "1" }).poolSize).toBe(1);
  });
});
