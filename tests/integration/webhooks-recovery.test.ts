// Webhooks after an outage: a receiver that answers 2xx again gets its waiting notifications at
// once (not on their backoff schedule, minutes away here), fresh notifications go before the
// backlog, and every attempt is in the delivery log from the moment its request goes out.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_SCHEMA_SOURCE } from "../../bank/db/client.ts";
import { openMigratedPglite } from "../../lib/server/database.ts";
import {
  BACKENDS,
  newCustomer,
  sandbox,
  startTestBank,
  type TestBank,
  type TestCustomer,
} from "../helpers/bank.ts";
import { bankMigrationsBefore, createTestDatabase, PG_URL } from "../helpers/databases.ts";
import { type Receiver, startReceiver } from "./webhooks-receivers.ts";

interface Delivery {
  messageId: string;
  attempt: number;
  ok: boolean | null;
  error: string | null;
  state: string;
  notification: { AccountNumber: string; AvailableBalance: string };
}

const deliveries = (bank: TestBank, account: string) =>
  sandbox<Delivery[]>(bank, "GET", `/sandbox/webhook-deliveries?accountNumber=${account}`);

const balanceOf = (r: { body: string }) =>
  JSON.parse(r.body) as { AccountNumber: string; AvailableBalance: string };

describe.each(BACKENDS)("webhooks after an outage on $name", ({ postgres }) => {
  let bank: TestBank;
  let c: TestCustomer;
  let receiver: Receiver;
  let up = false;

  beforeAll(async () => {
    // Retries two minutes apart at first: only the recovery can bring the backlog back in time.
    bank = await startTestBank({
      postgres,
      env: {
        BANK_WEBHOOK_RETRY_BASE_MS: "120000",
        BANK_WEBHOOK_CONCURRENCY: "2",
        BANK_WEBHOOK_HOST_CONCURRENCY: "2",
      },
    });
    c = await newCustomer(bank, "Outage Co");
    receiver = await startReceiver({ answer: () => (up ? 200 : 503), delayMs: 20 });
  });
  afterAll(async () => {
    await bank?.close();
    await receiver?.close();
  });

  const deposit = (accountNumber: string, amount = 1) =>
    sandbox(bank, "POST", "/sandbox/deposits", { accountNumber, amount });

  it("delivers every waiting notification soon after the receiver answers 2xx again, by itself", async () => {
    up = false;
    const acct = await c.account("SEN", 0);
    await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: receiver.url } });
    for (let i = 0; i < 8; i++) await deposit(acct);
    // The first failed: it waits for a retry up to two minutes away, and the others wait behind
    // it (a failing receiver gets no first attempts).
    await expect
      .poll(async () => (await deliveries(bank, acct)).filter((d) => d.ok === false).length, {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 500));
    up = true;
    // No new change comes to prompt it: the dispatcher probes the receiver, then sends the backlog.
    await expect
      .poll(async () => (await deliveries(bank, acct)).filter((d) => d.ok === true).length, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(8);
    const balances = receiver.received
      .filter((r) => balanceOf(r).AccountNumber === acct)
      .map((r) => Number(balanceOf(r).AvailableBalance));
    expect(new Set(balances)).toEqual(new Set([100, 200, 300, 400, 500, 600, 700, 800]));
  });

  it("sends a fresh notification before the backlog of an outage", async () => {
    up = false;
    const backlog = await c.account("SEN", 0);
    const live = await c.account("SEN", 0);
    for (const a of [backlog, live])
      await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: a, WebHookUrl: receiver.url } });
    const WAITING = 150;
    await bank.running.bank.db.query(
      `SELECT post_entry($1, 'C', 100, '2001', ARRAY['BACKLOG'], now(), current_date, '', '')
       FROM generate_series(1, $2)`,
      [backlog, WAITING],
    );
    bank.running.bank.events.emit("balance-changed");
    await expect
      .poll(async () => (await deliveries(bank, backlog)).filter((d) => d.ok === false).length, {
        timeout: 60_000,
        interval: 250,
      })
      .toBeGreaterThanOrEqual(1);
    up = true;
    const mark = receiver.received.length;
    const backlogDelivered = () =>
      receiver.received.slice(mark).filter((r) => balanceOf(r).AccountNumber === backlog).length;
    // The drain has begun (two at a time, 20 ms each: it takes seconds) when the live account changes.
    await expect.poll(backlogDelivered, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(5);
    await deposit(live, 7);
    await receiver.waitFor((rs) => rs.some((r) => balanceOf(r).AccountNumber === live), 60_000);
    // It went ahead of what still waited: most of the backlog arrived after it.
    expect(backlogDelivered()).toBeLessThan(WAITING / 2);
    await expect
      .poll(async () => (await deliveries(bank, backlog)).filter((d) => d.ok === true).length, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(WAITING);
  });
});

describe.each(BACKENDS)("the delivery log on $name", ({ postgres }) => {
  let release: () => void = () => {};
  let hold = true;

  // Two starts of a bank on a fresh database: longer than the default on a loaded machine.
  it("shows an attempt from the moment its request goes out, and keeps it across a restart", {
    timeout: 180_000,
  }, async () => {
    let dataDir: string | undefined;
    let db: { url: string; drop(): Promise<void> } | undefined;
    if (postgres) db = await createTestDatabase(PG_URL as string);
    else dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bank-log-"));
    const where = db ? { databaseUrl: db.url } : { dataDir };
    // A receiver that holds its answer until told.
    const held = new Promise<void>((r) => {
      release = r;
    });
    const holding = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (!hold) {
          res.writeHead(200);
          res.end();
          return;
        }
        held.then(() => {
          res.writeHead(200);
          res.end();
        });
      });
    });
    await new Promise<void>((r) => holding.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(holding.address() as { port: number }).port}/hook`;
    try {
      let bank = await startTestBank(where);
      const c = await newCustomer(bank, "Log Co");
      const acct = await c.account("SEN", 0);
      await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: url } });
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 3 });
      // The receiver has the request and has not answered: the attempt is already in the log.
      await expect.poll(async () => (await deliveries(bank, acct)).length, { timeout: 30_000 }).toBe(1);
      const [first] = await deliveries(bank, acct);
      expect(first).toMatchObject({ attempt: 1, ok: null, state: "pending" });

      // The bank stops while the request is out: the attempt stays, its outcome unknown.
      await bank.close();
      hold = false;
      release();
      bank = await startTestBank(where);
      try {
        await expect
          .poll(async () => (await deliveries(bank, acct)).map((d) => [d.attempt, d.ok]), { timeout: 60_000 })
          .toEqual([
            [1, false],
            [2, true],
          ]);
        const log = await deliveries(bank, acct);
        expect(log[0].error).toMatch(/interrupted/);
        expect(new Set(log.map((d) => d.messageId)).size).toBe(1);
      } finally {
        await bank.close();
      }
    } finally {
      release();
      holding.closeAllConnections();
      await new Promise<void>((r) => holding.close(() => r()));
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      await db?.drop();
    }
  });
});

describe("claims by receiver, on notifications written before the receiver was a column", () => {
  it("claims each receiver's fresh rows first, a failing one's retries only, and no receiver beyond its slots", {
    timeout: 240_000,
  }, async () => {
    // The migrations before 0011.
    const { dir, before } = bankMigrationsBefore(11, "bank-outbox-upgrade-");
    try {
      const data = path.join(dir, "db");
      const old = await openMigratedPglite(data, before);
      const t0 = Date.parse("2026-11-23T12:00:00Z");
      const at = (s: number) => new Date(t0 + s * 1000).toISOString();
      // [message id, channel, target, written (s), attempts, next attempt (s)]
      const rows: [string, string, string, number, number, number][] = [
        ["a-old", "http", "https://user:pw@A.example:8443/hook?x=1", 0, 0, 0],
        ["a-retry", "http", "https://a.example:8443/other", 1, 3, 50],
        ["a-fresh1", "http", "https://a.example:8443/hook", 95, 0, 95],
        ["a-fresh2", "http", "https://a.example:8443/hook", 96, 0, 96],
        ["a-later", "http", "https://a.example:8443/hook", 2, 2, 200],
        ["b-old", "http", "http://b.example/hook", 5, 0, 5],
        ["b-retry", "http", "http://b.example/hook", 6, 1, 60],
        ["b-fresh", "http", "http://b.example/hook", 97, 0, 97],
        ["mail-1", "email", "ops@example.com", 3, 0, 3],
      ];
      for (const [id, channel, target, written, attempts, next] of rows)
        await old.client.query(
          `INSERT INTO outbox (message_id, webhook_id, customer_id, channel, target, payload, created_at,
             next_attempt_at, attempts)
           VALUES ($1, 'wh', 1, $2, $3, '{}', $4, $5, $6)`,
          [id, channel, target, at(written), at(next), attempts],
        );
      await old.close();

      const db = await openMigratedPglite(data, BANK_SCHEMA_SOURCE);
      try {
        const hosts = await db.client.query<{ message_id: string; host: string }>(
          "SELECT message_id, host FROM outbox ORDER BY id",
        );
        expect(hosts.rows.map((r) => r.host)).toEqual([
          "a.example:8443",
          "a.example:8443",
          "a.example:8443",
          "a.example:8443",
          "a.example:8443",
          "b.example",
          "b.example",
          "b.example",
          "",
        ]);
        // At 100 s, fresh since 90 s: a.example has 2 free slots, b.example is failing.
        const claimed = await db.client.query<{ message_id: string; host: string | null; attempts: number }>(
          `SELECT message_id, host, attempts FROM claim_outbox($1, 10, $2, $3, '{}', '{b.example}',
             '{a.example:8443}', '{2}', 8)`,
          [at(100), at(130), at(90)],
        );
        expect(claimed.rows.map((r) => r.message_id).sort()).toEqual(
          ["a-fresh1", "a-fresh2", "b-retry", "mail-1"].sort(),
        );
        expect(claimed.rows.find((r) => r.message_id === "mail-1")?.host).toBeNull();
        const attempts = await db.client.query<{ message_id: string; attempt: number; ok: boolean | null }>(
          "SELECT message_id, attempt, ok FROM delivery_attempts ORDER BY message_id",
        );
        expect(attempts.rows).toEqual([
          { message_id: "a-fresh1", attempt: 1, ok: null },
          { message_id: "a-fresh2", attempt: 1, ok: null },
          { message_id: "b-retry", attempt: 2, ok: null },
          { message_id: "mail-1", attempt: 1, ok: null },
        ]);
        // Then the longest-waiting of a.example: its oldest never-tried row before its due retry;
        // the retry not yet due and b.example's never-tried rows stay.
        const next = await db.client.query<{ message_id: string }>(
          `SELECT message_id FROM claim_outbox($1, 10, $2, $3, '{}', '{b.example}', '{}', '{}', 8)`,
          [at(100), at(130), at(90)],
        );
        expect(next.rows.map((r) => r.message_id).sort()).toEqual(["a-old", "a-retry"]);
        const due = await db.client.query<{ t: Date | null }>("SELECT outbox_next_retry() AS t");
        expect(new Date(due.rows[0].t as Date).toISOString()).toBe(at(130));
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
