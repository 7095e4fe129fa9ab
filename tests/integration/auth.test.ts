import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { call, newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";

let bank: TestBank;
beforeAll(async () => {
  bank = await startTestBank();
});
afterAll(() => bank?.close());

describe("authentication", () => {
  it("returns the JWT in the Authorization response header with no body", async () => {
    const c = await sandbox(bank, "POST", "/sandbox/customers", { name: "Token Co" });
    const r = await call(bank.url, "GET", "/v2/access/token", {
      headers: { [BANK_HEADERS.subscriptionKey]: c.subscriptionKey },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("authorization")).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(r.text).toBe("");
  });

  it("issues one token per key per five minutes and says when to retry", async () => {
    const c = await newCustomer(bank);
    const again = await call(bank.url, "GET", "/v2/access/token", {
      headers: { [BANK_HEADERS.subscriptionKey]: c.key },
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get(BANK_HEADERS.retryAfter))).toBeGreaterThan(0);
    expect(again.json.message).toMatch(/once every 300 seconds/);
  });

  it("answers 401 with the gateway body for a missing or unknown key", async () => {
    const missing = await call(bank.url, "GET", "/v2/account/list");
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ statusCode: 401, message: expect.any(String) });
    const unknown = await call(bank.url, "GET", "/v2/access/token", {
      headers: { [BANK_HEADERS.subscriptionKey]: "sk_nope" },
    });
    expect(unknown.status).toBe(401);
  });

  it("answers 401 for a missing or forged token and accepts raw and Bearer forms", async () => {
    const c = await newCustomer(bank);
    const noToken = await call(bank.url, "GET", "/v2/account/list", {
      headers: { [BANK_HEADERS.subscriptionKey]: c.key },
    });
    expect(noToken.status).toBe(401);
    const forged = await c.api("GET", "/v2/account/list", {
      headers: { Authorization: `${c.token.slice(0, -4)}AAAA` },
    });
    expect(forged.status).toBe(401);
    expect((await c.api("GET", "/v2/account/list")).status).toBe(200);
    expect(
      (await c.api("GET", "/v2/account/list", { headers: { Authorization: `Bearer ${c.token}` } })).status,
    ).toBe(200);
  });

  it("refuses a token shown with another customer's key", async () => {
    const a = await newCustomer(bank, "A Corp");
    const b = await newCustomer(bank, "B Corp");
    const r = await call(bank.url, "GET", "/v2/account/list", {
      headers: { [BANK_HEADERS.subscriptionKey]: b.key, Authorization: a.token },
    });
    expect(r.status).toBe(401);
  });
});

describe("token expiry", () => {
  it("expires a token after 15 minutes and lets the key have a new one after 5", async () => {
    const own = await startTestBank();
    try {
      const c = await newCustomer(own);
      expect((await c.api("GET", "/v2/account/list")).status).toBe(200);
      await sandbox(own, "POST", "/sandbox/clock", { advanceSeconds: 15 * 60 + 1 });
      expect((await c.api("GET", "/v2/account/list")).status).toBe(401);
      const fresh = await call(own.url, "GET", "/v2/access/token", {
        headers: { [BANK_HEADERS.subscriptionKey]: c.key },
      });
      expect(fresh.status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
