// The shared bank token: one renewal for many concurrent callers (and across instances sharing
// the dashboard database), one renewal after a 401, and the bank's 429 Retry-After respected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { BankClient } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { call, sandbox, sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";
import { openTestDashboardDb, type TestDashboardDb } from "../helpers/routes.ts";

let bank: TestBank;
let dashboard: TestDashboardDb;
let db: DashboardDb;

beforeAll(async () => {
  bank = await startTestBank();
  dashboard = await openTestDashboardDb("dashboard-db");
  db = dashboard.db;
}, 120_000);
afterAll(async () => {
  await dashboard?.close();
  await bank?.close();
});

/** A customer whose key has never asked for a token (the bank's helper would use it up). */
async function freshCustomer(name: string) {
  const c = await sandboxCustomer(bank, name);
  const accountNumber = await c.account("DDA", 1000);
  return { key: c.subscriptionKey, accountNumber };
}

const advanceBankClock = (seconds: number) =>
  sandbox(bank, "POST", "/sandbox/clock", { advanceSeconds: seconds });

function instance(key: string, now?: () => number) {
  const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: key, now });
  return { tokens, client: new BankClient({ bankUrl: bank.url, subscriptionKey: key, tokens }) };
}

async function storedRequests(key: string): Promise<number> {
  const { createHash } = await import("node:crypto");
  const rows = await db.query<{ requests: number }>("SELECT requests FROM bank_tokens WHERE key_hash = $1", [
    createHash("sha256").update(key).digest("hex"),
  ]);
  return rows[0]?.requests ?? 0;
}

describe("token manager", () => {
  it("asks the bank for one token however many requests arrive at once", async () => {
    const c = await freshCustomer("Concurrent Co");
    const { tokens, client } = instance(c.key);
    const results = await Promise.all(Array.from({ length: 10 }, () => client.call("accountList")));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(tokens.requestsSent).toBe(1);
    expect(await storedRequests(c.key)).toBe(1);
  });

  it("renews once when 10 concurrent requests find the token expired at the bank", async () => {
    const c = await freshCustomer("Expiry Co");
    const { tokens, client } = instance(c.key);
    expect((await client.call("accountList")).ok).toBe(true);
    expect(tokens.requestsSent).toBe(1);
    // The bank's clock passes the 15-minute validity: every request is answered 401 first.
    await advanceBankClock(15 * 60 + 5);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.call("balance", { query: { accountNumber: c.accountNumber } })),
    );
    // A second token request inside 5 minutes would be a 429 and fail some of these.
    expect(results.map((r) => r.ok)).toEqual(Array(10).fill(true));
    expect(tokens.requestsSent).toBe(2);
    expect(await storedRequests(c.key)).toBe(2);
  });

  it("lets two dashboard instances sharing the database renew an expired stored token once", async () => {
    const c = await freshCustomer("Two Instances Co");
    let now = Date.now();
    const a = instance(c.key, () => now);
    const b = instance(c.key, () => now);
    expect((await a.client.call("accountList")).ok).toBe(true);
    expect((await b.client.call("accountList")).ok).toBe(true);
    // B reused A's token from the shared row.
    expect(a.tokens.requestsSent + b.tokens.requestsSent).toBe(1);

    // Sixteen minutes pass for both the dashboard and the bank: the stored token has expired.
    now += 16 * 60 * 1000;
    await advanceBankClock(16 * 60);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).client.call("balance", { query: { accountNumber: c.accountNumber } }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(a.tokens.requestsSent + b.tokens.requestsSent).toBe(2);
    expect(await storedRequests(c.key)).toBe(2);
  });

  it("renews ahead of expiry, but not before the bank's 5-minute interval", async () => {
    const c = await freshCustomer("Ahead Co");
    let now = Date.now();
    const { tokens } = instance(c.key, () => now);
    const first = await tokens.getToken();
    now += 4 * 60 * 1000;
    expect(await tokens.getToken()).toBe(first);
    // 14.5 minutes after issue: inside the renew-ahead minute, and past the interval at the bank too.
    now += 10.5 * 60 * 1000;
    await advanceBankClock(10 * 60);
    const second = await tokens.getToken();
    expect(second).not.toBe(first);
    expect(tokens.requestsSent).toBe(2);
  });

  it("renews once after a 401 and then gives up with a clear error", async () => {
    const a = await freshCustomer("Key A Co");
    const b = await freshCustomer("Key B Co");
    // Tokens of key A shown with key B: the bank answers 401 to every one of them.
    const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: a.key });
    const client = new BankClient({ bankUrl: bank.url, subscriptionKey: b.key, tokens });
    await tokens.getToken();
    await advanceBankClock(5 * 60 + 5);
    const r = await client.call("accountList");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe("bank_error");
      expect(r.error.status).toBe(401);
      expect(r.error.message).toMatch(/did not accept/);
    }
    expect(tokens.requestsSent).toBe(2);
  });

  it("respects the bank's Retry-After when a token is asked for too soon", async () => {
    const c = await freshCustomer("Too Soon Co");
    // Someone else used this key's token allowance a moment ago.
    const other = await call(bank.url, "GET", "/v2/access/token", {
      headers: { [BANK_HEADERS.subscriptionKey]: c.key },
    });
    expect(other.status).toBe(200);
    const { tokens, client } = instance(c.key);
    const r1 = await client.call("accountList");
    expect(r1.ok).toBe(false);
    if (!r1.ok) {
      expect(r1.error.kind).toBe("unavailable");
      expect(r1.error.retryAfter).toBeGreaterThan(0);
      expect(r1.error.message).toMatch(/new access token in \d+ seconds/);
    }
    const r2 = await client.call("accountList");
    expect(r2.ok).toBe(false);
    // The second call waited out the Retry-After locally instead of asking again.
    expect(tokens.requestsSent).toBe(1);
  });
});
