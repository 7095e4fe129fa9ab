import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeFinishedNotifications } from "../../bank/ledger/housekeeping.ts";
import { newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";

let bank: TestBank;
beforeAll(async () => {
  bank = await startTestBank();
});
afterAll(() => bank?.close());

describe("housekeeping", () => {
  it("keeps finished notifications 30 days, then removes them with their attempts, never pending ones", async () => {
    const c = await newCustomer(bank, "Tidy Co");
    const acct = await c.account("SEN", 1);
    // E-mail without SMTP lands in the sandbox mail box at once: a delivered notification.
    const reg = await c.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: acct, Emails: "ops@tidy.example" },
    });
    expect(reg.json.WebHookId).toBeTruthy();
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 5 });
    const db = bank.running.bank.db;
    for (let i = 0; i < 50; i++) {
      const rows = await db.query<{ state: string }>("SELECT state FROM outbox");
      if (rows.length && rows.every((r) => r.state === "delivered")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // A pending notification that must survive any purge.
    await db.query(
      `INSERT INTO outbox (message_id, webhook_id, customer_id, channel, target, payload, created_at, next_attempt_at)
       VALUES ('msg_pending_test', $1, $2, 'http', 'http://127.0.0.1:9/', '{}'::jsonb, now(), now() + interval '1 year')`,
      [reg.json.WebHookId, c.customerId],
    );
    expect(await purgeFinishedNotifications(bank.running.bank)).toBe(0);
    await bank.running.bank.clock.advance(31 * 86_400);
    expect(await purgeFinishedNotifications(bank.running.bank)).toBe(1);
    expect(await db.query("SELECT message_id FROM outbox")).toEqual([{ message_id: "msg_pending_test" }]);
    expect(await db.query("SELECT id FROM delivery_attempts")).toEqual([]);
  });
});
