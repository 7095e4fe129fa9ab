// The dispatcher's LISTEN connection comes back after the server drops it, and the bank keeps
// delivering notifications meanwhile.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";
import { type Receiver, startReceiver, waitFor } from "../integration/webhooks-receivers.ts";

describe.skipIf(!PG_URL)("LISTEN on PostgreSQL", () => {
  let bank: TestBank;
  let receiver: Receiver;
  let admin: pg.Client;
  beforeAll(async () => {
    receiver = await startReceiver();
    bank = await startTestBank({ postgres: true });
    admin = new pg.Client({ connectionString: bank.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await bank?.close();
    await receiver?.close();
  });

  const listener = async () =>
    (
      await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN bank_outbox'",
      )
    ).rows.map((r) => r.pid);

  it("listens again on a new connection after its connection is terminated", async () => {
    const [before] = await waitFor(async () => {
      const p = await listener();
      return p.length === 1 ? p : undefined;
    });
    await admin.query("SELECT pg_terminate_backend($1)", [before]);
    const after = await waitFor(async () => {
      const p = await listener();
      return p.length === 1 && p[0] !== before ? p : undefined;
    }, 10_000);
    expect(after[0]).not.toBe(before);

    const c = await newCustomer(bank, "Listen Co");
    const acct = await c.account("SEN", 0);
    await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: receiver.url } });
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 2 });
    await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body).AccountNumber === acct));
  });
});
