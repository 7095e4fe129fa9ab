// Webhook delivery on a real PostgreSQL server: two bank instances share one outbox and deliver
// each notification once (FOR UPDATE SKIP LOCKED), and a notification exists only if the balance
// change committed.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";
import { type Receiver, startReceiver, waitFor } from "../integration/webhooks-receivers.ts";

describe.skipIf(!PG_URL)("webhooks on PostgreSQL", () => {
  let first: TestBank;
  let second: TestBank;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver({ delayMs: 5 });
    first = await startTestBank({ postgres: true, env: { BANK_DB_POOL: "20" } });
    second = await startTestBank({ databaseUrl: first.databaseUrl, env: { BANK_DB_POOL: "20" } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await receiver?.close();
  });

  const ids = (acct: string) =>
    receiver.received
      .filter((r) => JSON.parse(r.body).AccountNumber === acct)
      .map((r) => String(r.headers["webhook-id"]));

  it("delivers each notification once when two instances share the outbox", async () => {
    const c = await newCustomer(first, "Shared Outbox Co");
    const acct = await c.account("SEN", 0);
    await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: receiver.url } });
    // 200 balance changes, half through each instance, all at once.
    const n = 200;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        sandbox(i % 2 ? second : first, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 1 }),
      ),
    );
    await waitFor(() => (ids(acct).length >= n ? true : undefined), 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    const got = ids(acct);
    expect(got).toHaveLength(n);
    expect(new Set(got).size).toBe(n);
    // Every balance from $1 to $200 was announced exactly once.
    const balances = receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.AccountNumber === acct)
      .map((b) => Number(b.AvailableBalance))
      .sort((x, y) => x - y);
    expect(balances).toEqual(Array.from({ length: n }, (_, i) => (i + 1) * 100));
    const attempts = await sandbox<{ ok: boolean }[]>(
      second,
      "GET",
      `/sandbox/webhook-deliveries?accountNumber=${acct}`,
    );
    expect(attempts).toHaveLength(n);
    expect(attempts.every((a) => a.ok)).toBe(true);
  });

  it("writes the notification in the balance change's transaction: nothing before COMMIT, nothing after ROLLBACK", async () => {
    const c = await newCustomer(first, "Transactional Co");
    const acct = await c.account("SEN", 10);
    await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: receiver.url } });
    const client = new pg.Client({ connectionString: first.databaseUrl });
    await client.connect();
    try {
      const credit = () =>
        client.query(
          "SELECT post_entry($1, 'C', 500, '2001', ARRAY['DEPOSIT','TEST'], now(), current_date, '', '')",
          [acct],
        );
      await client.query("BEGIN");
      await credit();
      await client.query("ROLLBACK");
      await client.query("BEGIN");
      await credit();
      // Both dispatchers poll at least every second: an uncommitted notification stays invisible.
      await new Promise((r) => setTimeout(r, 2500));
      expect(ids(acct)).toEqual([]);
      await client.query("COMMIT");
      await waitFor(() => (ids(acct).length >= 1 ? true : undefined), 10_000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(ids(acct)).toHaveLength(1);
      const body = JSON.parse(
        receiver.received.find((r) => JSON.parse(r.body).AccountNumber === acct)?.body ?? "",
      );
      expect(body).toEqual({
        AccountNumber: acct,
        AvailableBalance: "000001500",
        PreviousBalance: "000001000",
      });
    } finally {
      await client.end();
    }
  });
});
