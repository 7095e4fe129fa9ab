// A slow receiver gets at most BANK_WEBHOOK_HOST_CONCURRENCY deliveries at once, so it cannot
// hold every delivery slot while other receivers' notifications wait.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import { type Receiver, startReceiver, waitFor } from "./webhooks-receivers.ts";

let bank: TestBank;
let slow: Receiver;
let fast: Receiver;
beforeAll(async () => {
  bank = await startTestBank({
    env: { BANK_WEBHOOK_CONCURRENCY: "8", BANK_WEBHOOK_HOST_CONCURRENCY: "2" },
  });
  slow = await startReceiver({ delayMs: 1500 });
  fast = await startReceiver();
});
afterAll(async () => {
  await bank?.close();
  await slow?.close();
  await fast?.close();
});

describe("webhook deliveries per receiver", () => {
  it("keeps a slow receiver to its share and delivers to the others meanwhile, each notification once", async () => {
    const c = await newCustomer(bank, "Hosts Co");
    const [a, b] = [await c.account("SEN", 10), await c.account("SEN", 10)];
    for (const [account, url] of [
      [a, slow.url],
      [b, fast.url],
    ]) {
      const r = await c.api("POST", "/v2/webhooks/register", {
        body: { AccountNumber: account, WebHookUrl: url },
      });
      expect(r.json.WebHookId).toBeTruthy();
    }
    // Ten notifications for the slow receiver: with 8 slots and no limit per receiver, it would
    // take 8 at once and the fast receiver's notification would wait for one to end.
    for (let i = 0; i < 10; i++)
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: a, amount: 1 + i / 100 });
    await slow.waitFor((r) => r.length >= 2);
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: b, amount: 5 });
    await fast.waitFor((r) => r.length === 1, 5_000);
    // The fast receiver was served while the slow one still held its first two.
    expect(slow.received.length).toBe(2);

    await slow.waitFor((r) => r.length === 10, 30_000);
    expect(slow.maxInFlight()).toBe(2);
    // Passing a receiver's rows by is not an attempt: one attempt each, all delivered.
    const rows = await waitFor(async () => {
      const r = await bank.running.bank.db.query<{ attempts: number; state: string }>(
        `SELECT o.attempts, o.state FROM outbox o JOIN webhooks w ON w.id = o.webhook_id WHERE w.account_number = $1`,
        [a],
      );
      return r.every((x) => x.state === "delivered") ? r : undefined;
    });
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    const attempts = await bank.running.bank.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM delivery_attempts d JOIN outbox o ON o.id = d.outbox_id
       JOIN webhooks w ON w.id = o.webhook_id WHERE w.account_number = $1`,
      [a],
    );
    expect(attempts[0].n).toBe(10);
  });
});
