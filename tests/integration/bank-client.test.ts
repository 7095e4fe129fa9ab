// The bank client against the real bank: contract-checked answers, ERROR items and 400s as clear
// error values, reads retried and writes not, overlapping identical reads sharing one bank
// request but never an answer older than the caller, an unchanged answer checked once; and
// against a tiny misbehaving server (not the bank), a malformed answer or a silent one becomes an
// error value instead of a crash.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { TransactionSchema } from "../../lib/bank-api/history.ts";
import { BankClient, CHECKED_ANSWER_TEXT } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import {
  type SandboxCustomer,
  sandbox,
  sandboxCustomer,
  startTestBank,
  type TestBank,
} from "../helpers/bank.ts";
import { openTestDashboardDb, type TestDashboardDb } from "../helpers/routes.ts";

let bank: TestBank;
let dashboard: TestDashboardDb;
let db: DashboardDb;
let client: BankClient;
let key: string;
let account: string;
/** The customer the client calls as; it opens more accounts for the cases that need their own. */
let customer: SandboxCustomer;

beforeAll(async () => {
  bank = await startTestBank();
  dashboard = await openTestDashboardDb("dashboard-db");
  db = dashboard.db;
  const c = await sandboxCustomer(bank, "Client Test Co");
  key = c.subscriptionKey;
  customer = c;
  account = await c.account("SEN", 1234.56);
  const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: key });
  client = new BankClient({ bankUrl: bank.url, subscriptionKey: key, tokens });
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  await bank?.close();
});

/** A stand-in server for the cases the bank never produces: wrong shapes, 503s, silence. */
async function misbehavingServer(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const localKey = `sk_local_${Math.random().toString(36).slice(2)}`;
  const tokens = new TokenManager({ db, bankUrl: url, subscriptionKey: localKey });
  return {
    url,
    client: (o: { timeoutMs?: number; readRetries?: number } = {}) =>
      new BankClient({ bankUrl: url, subscriptionKey: localKey, tokens, retryBaseMs: 10, ...o }),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const tokenAnswer = (res: http.ServerResponse) => {
  res.writeHead(200, { Authorization: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl" });
  res.end();
};

describe("bank client against the bank", () => {
  it("returns the contract's types for a well-formed answer", async () => {
    const r = await client.call("balance", { query: { accountNumber: account } });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.data.ResponseData[0].ACTNBR).toBe(account);
      expect(r.data.ResponseData[0].AVAILBAL).toBe(1234.56);
    }
  });

  it("turns ERROR items into a rejected value carrying the bank's message", async () => {
    const r = await client.call("balance", { query: { accountNumber: "9999999999" } });
    expect(r).toMatchObject({ ok: false, error: { kind: "rejected", message: "Account not found" } });
  });

  it("turns a 400 into a rejected value with the bank's field errors", async () => {
    const r = await client.call("history", {
      query: { accountNumber: account, beginDate: "2026-02-30", endDate: "2026-03-01" },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe("rejected");
      expect(r.error.status).toBe(400);
      expect(r.error.message).toMatch(/^The bank rejected the request/);
      expect(r.error.fields?.[0]?.field).toBe("beginDate");
    }
  });

  it("never puts the subscription key or the token into an error message", async () => {
    const token = await client.tokens.getToken();
    const r = await client.call("balance", { query: { accountNumber: "1" } });
    expect(r.ok).toBe(false);
    const text = JSON.stringify(r);
    expect(text).not.toContain(key);
    expect(text).not.toContain(token);
  });
});

/**
 * A pass-through to the real bank that counts the /v2 requests it forwards and, when asked, holds
 * the bank's next answer (already read from the bank) until released.
 */
async function countingPassThrough() {
  const forwarded: string[] = [];
  let hold: { arrived: () => void; release: Promise<void> } | null = null;
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/v2/") && !req.url.startsWith("/v2/access/token")) forwarded.push(req.url);
    const held = hold;
    hold = null;
    const upstream = http.request(
      new URL(req.url ?? "/", bank.url),
      { method: req.method, headers: { ...req.headers, host: new URL(bank.url).host } },
      (up) => {
        const chunks: Buffer[] = [];
        up.on("data", (c) => chunks.push(c));
        up.on("end", async () => {
          if (held) {
            held.arrived();
            await held.release;
          }
          res.writeHead(up.statusCode ?? 502, up.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    forwarded,
    // The token comes from the bank itself through the shared token manager.
    client: new BankClient({ bankUrl: url, subscriptionKey: key, tokens: client.tokens }),
    /** The next forwarded request's answer waits for `release()`; `answered` says it is held. */
    holdNext() {
      let arrived!: () => void;
      let release!: () => void;
      const answered = new Promise<void>((r) => {
        arrived = r;
      });
      hold = { arrived, release: new Promise<void>((r) => (release = r)) };
      return { answered, release };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe("identical reads in flight together", () => {
  it("share one bank request among the callers that arrive while one is on the wire", async () => {
    const p = await countingPassThrough();
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => p.client.call("balance", { query: { accountNumber: account } })),
      );
      for (const r of results) expect(r).toEqual(results[0]);
      expect(results[0].ok).toBe(true);
      // The first caller's request, then one shared by the 19 that arrived while it was out.
      expect(p.forwarded).toHaveLength(2);
      // Different reads are never shared.
      const other = await customer.account("DDA", 5);
      p.forwarded.length = 0;
      const [a, b] = await Promise.all([
        p.client.call("balance", { query: { accountNumber: account } }),
        p.client.call("balance", { query: { accountNumber: other } }),
      ]);
      expect(p.forwarded).toHaveLength(2);
      if (a.ok && b.ok) {
        expect(a.data.ResponseData[0].ACTNBR).toBe(account);
        expect(b.data.ResponseData[0].ACTNBR).toBe(other);
      } else expect.fail("both reads should succeed");
    } finally {
      await p.close();
    }
  });

  it("never hand a caller an answer the bank read before that caller asked", async () => {
    const p = await countingPassThrough();
    try {
      const acct = await customer.account("DDA", 100);
      const read = () => p.client.call("balance", { query: { accountNumber: acct } });
      const avail = (r: Awaited<ReturnType<typeof read>>) => (r.ok ? r.data.ResponseData[0].AVAILBAL : null);
      // The first read has its answer from the bank (100.00) but it is still on its way back...
      const held = p.holdNext();
      const first = read();
      await held.answered;
      // ...when a deposit completes, and only then a second caller asks.
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 25 });
      const second = read();
      held.release();
      expect(avail(await first)).toBe(100);
      expect(avail(await second)).toBe(125);
      expect(p.forwarded).toHaveLength(2);
    } finally {
      await p.close();
    }
  });
});

describe("an answer the bank repeats", () => {
  it("is parsed and checked once: the same frozen value comes back until the answer changes", async () => {
    const acct = await customer.account("DDA", 40);
    const read = () => client.call("balance", { query: { accountNumber: acct } });
    const first = await read();
    const again = await read();
    if (!first.ok || !again.ok) return expect.fail("both reads should succeed");
    expect(again.data).toBe(first.data);
    const record = first.data.ResponseData[0] as { AVAILBAL: number };
    expect(() => {
      record.AVAILBAL = 1;
    }).toThrow(TypeError);
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 2.5 });
    const after = await read();
    if (!after.ok) return expect.fail("the read after the deposit should succeed");
    expect(after.data).not.toBe(first.data);
    expect(after.data.ResponseData[0].AVAILBAL).toBe(42.5);
    expect(first.data.ResponseData[0].AVAILBAL).toBe(40);
  });

  it("is not kept when it is large (a busy day of history): the same read twice gives two values", async () => {
    const acct = await customer.account("SEN", 10);
    const day = bank.running.bank.clock.businessDate();
    // Enough entries that the day's answer passes CHECKED_ANSWER_TEXT (some 700 characters each).
    const entries = Math.ceil(CHECKED_ANSWER_TEXT / 500);
    await bank.running.bank.db.query(
      `SELECT post_entry($1, 'C', 100 + g, '1100', ARRAY['BULK ' || g, 'LINE2'], $2::timestamptz + make_interval(secs => g), $3, '', '')
       FROM generate_series(1, $4::int) AS g`,
      [acct, `${day}T15:00:00Z`, day, entries],
    );
    const read = () => client.call("extendedHistory", { query: { accountNumber: acct, date: day } });
    const first = await read();
    const again = await read();
    if (!first.ok || !again.ok) return expect.fail("both reads should succeed");
    expect(first.data.ResponseData[0].TRANSACTION.length).toBeGreaterThanOrEqual(entries);
    expect(JSON.stringify(first.data).length).toBeGreaterThan(CHECKED_ANSWER_TEXT);
    expect(again.data).not.toBe(first.data);
    expect(again.data).toEqual(first.data);
  });
});

describe("a day of history read entry by entry", () => {
  it("hands each entry, checked, to the caller in the answer's order: the same entries as the whole read", async () => {
    const acct = await customer.account("SEN", 10);
    const day = bank.running.bank.clock.businessDate();
    await bank.running.bank.db.query(
      `SELECT post_entry($1, CASE WHEN g % 3 = 0 THEN 'D' ELSE 'C' END, 100 + g, '1100', ARRAY['BULK ' || g, 'LINE2'], $2::timestamptz + make_interval(secs => g), $3, '', '')
       FROM generate_series(1, 40) AS g`,
      [acct, `${day}T15:00:00Z`, day],
    );
    const query = { accountNumber: acct, date: day, displayOrder: "A" };
    const whole = await client.call("extendedHistory", { query });
    const each = await client.callRecords(
      "extendedHistory",
      { query },
      { key: "TRANSACTION", schema: TransactionSchema },
      (t, k) => ({ k, t }),
    );
    if (!whole.ok || !each.ok) return expect.fail("both reads should succeed");
    expect(each.data.records.map((r) => r.t)).toEqual(whole.data.ResponseData[0].TRANSACTION);
    expect(each.data.records.map((r) => r.k)).toEqual(each.data.records.map((_, k) => k));
    expect(each.data.pages).toEqual([{ RECS_RETURNED: 41, MOREDATA: "N" }]);
  });

  it("returns an entry off the contract as a bank_error value, and ERROR items as a rejected one", async () => {
    let answer: unknown;
    const s = await misbehavingServer((req, res) => {
      if (req.url?.startsWith("/v2/access/token")) return tokenAnswer(res);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer));
    });
    const read = () =>
      s
        .client()
        .callRecords(
          "extendedHistory",
          { query: { accountNumber: "1", date: "2026-01-05" } },
          { key: "TRANSACTION", schema: TransactionSchema },
          (t) => t.TRANAMT,
        );
    try {
      answer = {
        SEQUENCE: 1,
        ResponseData: [{ RECS_RETURNED: 1, MOREDATA: "N", TRANSACTION: [{ TRANAMT: "12.00" }] }],
        ERROR: [],
      };
      expect(await read()).toEqual({
        ok: false,
        error: { kind: "bank_error", message: "The bank's answer did not match the API contract." },
      });
      answer = { SEQUENCE: 1, ResponseData: [{ RECS_RETURNED: 0, MOREDATA: "N" }], ERROR: [] };
      expect(await read()).toMatchObject({ ok: false, error: { kind: "bank_error" } });
      answer = {
        SEQUENCE: 1,
        ResponseData: [],
        ERROR: [
          {
            MESSAGEID: "1",
            MESSAGETYPE: "E",
            SEGMENTID: "1",
            SEGMENT_OCCUR: "1",
            FIELDNAME: "accountNumber",
            ERRORMSG: "Account not found",
          },
        ],
      };
      expect(await read()).toMatchObject({
        ok: false,
        error: { kind: "rejected", message: "Account not found" },
      });
    } finally {
      await s.close();
    }
  });
});

describe("bank client at the edge", () => {
  it("returns a malformed answer as a bank_error value, not a crash", async () => {
    const s = await misbehavingServer((req, res) => {
      if (req.url?.startsWith("/v2/access/token")) return tokenAnswer(res);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ SEQUENCE: "one", ResponseData: "not a list" }));
    });
    try {
      const r = await s.client().call("accountList");
      expect(r).toEqual({
        ok: false,
        error: { kind: "bank_error", message: "The bank's answer did not match the API contract." },
      });
      const notJson = await misbehavingServer((req, res) => {
        if (req.url?.startsWith("/v2/access/token")) return tokenAnswer(res);
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html>gateway</html>");
      });
      try {
        expect(await notJson.client().call("balance", { query: { accountNumber: "1" } })).toMatchObject({
          ok: false,
          error: { kind: "bank_error" },
        });
      } finally {
        await notJson.close();
      }
    } finally {
      await s.close();
    }
  });

  it("retries a read after a 503 and succeeds, but sends a write once", async () => {
    let reads = 0;
    let writes = 0;
    const s = await misbehavingServer((req, res) => {
      if (req.url?.startsWith("/v2/access/token")) return tokenAnswer(res);
      if (req.method === "GET") {
        reads++;
        if (reads < 3) {
          res.writeHead(503, { "Content-Type": "application/json" });
          return res.end(
            JSON.stringify({ statusCode: 503, message: "Host connection cannot be established" }),
          );
        }
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end(JSON.stringify({ SEQUENCE: 0, ResponseData: [], ERROR: [] }));
      }
      writes++;
      res.writeHead(503, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ statusCode: 503, message: "Host connection cannot be established" }));
    });
    try {
      const c = s.client();
      expect((await c.call("accountList")).ok).toBe(true);
      expect(reads).toBe(3);
      const w = await c.call("transferSen", {
        body: { AccountNumberFrom: "1", AccountNumberTo: "2", Amount: 1 },
        idempotencyKey: "4b0d3c52-3f7e-4a59-9d5e-1f5b8f0e2a11",
      });
      expect(w).toMatchObject({ ok: false, error: { kind: "unavailable" } });
      if (!w.ok) expect(w.error.message).toMatch(/Host connection cannot be established/);
      expect(writes).toBe(1);
    } finally {
      await s.close();
    }
  });

  it("does not retry a 4xx", async () => {
    let reads = 0;
    const s = await misbehavingServer((req, res) => {
      if (req.url?.startsWith("/v2/access/token")) return tokenAnswer(res);
      reads++;
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ statusCode: 400, message: "Invalid request information", errors: [] }));
    });
    try {
      expect((await s.client().call("accountList")).ok).toBe(false);
      expect(reads).toBe(1);
    } finally {
      await s.close();
    }
  });

  it("sends a read again at once when the bank closed the kept-alive socket it went out on", async () => {
    const perSocket = new Map<unknown, number>();
    let received = 0;
    const s = await misbehavingServer((req, res) => {
      if (req.url?.startsWith("/v2/access/token")) return tokenAnswer(res);
      received++;
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      // A second request on a kept-alive socket finds it closed, as after the bank's idle timeout.
      if (n > 1) return req.socket.destroy();
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ SEQUENCE: 0, ResponseData: [], ERROR: [] }));
    });
    try {
      const c = s.client({ readRetries: 0 });
      expect((await c.call("accountList")).ok).toBe(true);
      expect((await c.call("accountList")).ok).toBe(true);
      expect(received).toBe(3);
      // A write without an Idempotency-Key is not sent twice.
      received = 0;
      const w = await c.call("registerWebhook", {
        body: { url: "https://example.com/hook", events: ["balance.changed"] } as never,
      });
      expect(w).toMatchObject({ ok: false, error: { kind: "unavailable" } });
      expect(received).toBe(1);
    } finally {
      await s.close();
    }
  });

  it("gives up after the timeout and reports the bank unavailable", async () => {
    let asked = 0;
    const s = await misbehavingServer((req, res) => {
      if (req.url?.startsWith("/v2/access/token")) return tokenAnswer(res);
      // Never answers.
      asked++;
    });
    try {
      const r = await s.client({ timeoutMs: 300, readRetries: 1 }).call("accountList");
      expect(r).toMatchObject({ ok: false, error: { kind: "unavailable" } });
      if (!r.ok) expect(r.error.message).toMatch(/did not answer \(no answer within 0.3 s\)/);
      // The first attempt and one retry, each given up: nothing waits beyond them.
      expect(asked).toBe(2);
    } finally {
      await s.close();
    }
  });
});
