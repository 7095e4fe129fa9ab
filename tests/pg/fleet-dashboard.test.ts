// Two dashboard instances (each its own pool on one PostgreSQL database, its own bank client)
// in front of two bank instances sharing theirs. Registering the live-balance webhooks at the
// same moment leaves exactly one per account, duplicates left by older versions are removed, and
// the bank's notifications of a run of balance changes, shuffled and repeated over both
// instances, store each change once and fire each crossing of an alert line exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { WEBHOOK_HEADERS } from "../../lib/bank-api/headers.ts";
import { BankClient } from "../../lib/bank-client/index.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { type DashboardDb, openDashboardDb } from "../../lib/db/client.ts";
import { LiveHub } from "../../lib/live/hub.ts";
import { ensureBankWebhooks, receiverUrl } from "../../lib/live/receiver.ts";
import { sandbox, sandboxCustomer, startTestBank, type TestBank, transferBody } from "../helpers/bank.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";
import { type Receiver, startReceiver } from "../integration/webhooks-receivers.ts";

interface Instance {
  db: DashboardDb;
  client: BankClient;
  hub: LiveHub;
}

describe.skipIf(!PG_URL)("a fleet of two dashboards and two banks on PostgreSQL", () => {
  const saved = { ...process.env };
  let database: { url: string; drop(): Promise<void> };
  let banks: TestBank[];
  let receiver: Receiver;
  let customer: Awaited<ReturnType<typeof sandboxCustomer>>;
  let accounts: string[];
  const instances: Instance[] = [];

  beforeAll(async () => {
    const first = await startTestBank({ postgres: true, env: { BANK_WEBHOOK_RETRY_BASE_MS: "50" } });
    const second = await startTestBank({ databaseUrl: first.databaseUrl });
    banks = [first, second];
    receiver = await startReceiver();
    customer = await sandboxCustomer(first, "Fleet Co");
    accounts = [
      await customer.account("SEN", 1000),
      await customer.account("SEN", 1000),
      await customer.account("SEN", 0),
    ];
    process.env.BANK_WEBHOOK_SECRET = customer.webhookSecret;
    process.env.NEXTAUTH_SECRET = "fleet-test-nextauth-secret-0123456789";
    // Every path on the receiver is recorded: the bank posts to this dashboard's receiver path there.
    process.env.DASHBOARD_WEBHOOK_BASE_URL = new URL(receiver.url).origin;
    database = await createTestDatabase(PG_URL as string);
    for (const bank of banks) {
      const db = await openDashboardDb({ url: database.url, poolSize: 4 });
      const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: customer.subscriptionKey });
      const client = new BankClient({ bankUrl: bank.url, subscriptionKey: customer.subscriptionKey, tokens });
      const hub = new LiveHub(db, { listenUrl: database.url });
      await hub.start();
      instances.push({ db, client, hub });
    }
  }, 120_000);

  afterAll(async () => {
    for (const i of instances) {
      await i.hub.close();
      await i.db.close();
    }
    await database?.drop();
    await receiver?.close();
    for (const b of [...(banks ?? [])].reverse()) await b.close();
    process.env = { ...saved };
  });

  async function liveHooks() {
    const r = await instances[0].client.call("listWebhooks");
    if (!r.ok) throw new Error(r.error.message);
    return r.data.filter((h) => h.WebHookUrl === receiverUrl());
  }

  async function removeAll() {
    for (const h of await liveHooks()) {
      const r = await instances[0].client.call("deleteWebhook", { query: { webHookId: h.WebHookId } });
      if (!r.ok) throw new Error(r.error.message);
    }
  }

  it("leaves exactly one webhook per account when both instances register at the same moment", async () => {
    for (let round = 0; round < 4; round++) {
      await removeAll();
      const added = await Promise.all(instances.map((i) => ensureBankWebhooks(i.client, i.db)));
      expect(added.reduce((a, b) => a + b, 0)).toBe(accounts.length);
      const hooks = await liveHooks();
      expect(hooks.map((h) => h.AccountNumber).sort()).toEqual([...accounts].sort());
    }
  });

  it("opens a dashboard database with a pool of one (DATABASE_POOL=1) and registers through it", async () => {
    const one = await openDashboardDb({ url: database.url, poolSize: 1 });
    try {
      const tokens = new TokenManager({
        db: one,
        bankUrl: banks[0].url,
        subscriptionKey: customer.subscriptionKey,
      });
      const client = new BankClient({
        bankUrl: banks[0].url,
        subscriptionKey: customer.subscriptionKey,
        tokens,
      });
      await removeAll();
      expect(await ensureBankWebhooks(client, one)).toBe(accounts.length);
      expect(await one.tx(async (q) => (await q.query<{ n: number }>("SELECT 1 AS n"))[0].n)).toBe(1);
    } finally {
      await one.close();
    }
  });

  it("removes duplicates registered by older versions, keeping each account's first", async () => {
    await removeAll();
    await ensureBankWebhooks(instances[0].client, instances[0].db);
    const kept = await liveHooks();
    for (const account of accounts.slice(0, 2))
      for (let n = 0; n < 2; n++) {
        const r = await instances[1].client.call("registerWebhook", {
          body: { AccountNumber: account, WebHookUrl: receiverUrl() as string, Description: "old version" },
        });
        if (!r.ok) throw new Error(r.error.message);
      }
    expect(await liveHooks()).toHaveLength(accounts.length + 4);
    await Promise.all(instances.map((i) => ensureBankWebhooks(i.client, i.db)));
    const after = await liveHooks();
    expect(after.map((h) => h.WebHookId).sort()).toEqual(kept.map((h) => h.WebHookId).sort());
  });

  it("fires each crossing exactly once from notifications shuffled and repeated over both instances", async () => {
    await removeAll();
    await ensureBankWebhooks(instances[0].client, instances[0].db);
    const [watched, other] = accounts;
    await instances[0].db.query(
      "INSERT INTO alert_rules (account_number, below_cents, above_cents) VALUES ($1, 50000, 150000)",
      [watched],
    );
    // A seeded run of changes on the watched account (1,000.00 to start), each one awaited, so
    // the bank's order is known; the model counts its crossings.
    let seed = 20261126;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const balances: number[] = [];
    let cents = 100_000;
    for (let i = 0; i < 40; i++) {
      const down = cents > 20_000 && random() < 0.5;
      const amount = 1 + Math.floor(random() * (down ? Math.min(cents - 10_000, 100_000) : 60_000));
      if (down) {
        const r = await instances[i % 2].client.call("transferSen", {
          body: transferBody(watched, other, amount / 100) as never,
        });
        if (!r.ok) throw new Error(r.error.message);
        cents -= amount;
      } else {
        await sandbox(banks[i % 2], "POST", "/sandbox/deposits", {
          accountNumber: watched,
          amount: amount / 100,
        });
        cents += amount;
      }
      balances.push(cents);
    }
    const run = [100_000, ...balances];
    const want = { below: 0, above: 0 };
    for (let i = 1; i < run.length; i++) {
      if (run[i - 1] >= 50_000 && run[i] < 50_000) want.below++;
      if (run[i - 1] <= 150_000 && run[i] > 150_000) want.above++;
    }
    expect(want.below).toBeGreaterThan(1);
    expect(want.above).toBeGreaterThan(1);

    const ofWatched = (r: Receiver["received"]) =>
      r.filter((x) => JSON.parse(x.body).AccountNumber === watched);
    await receiver.waitFor((r) => ofWatched(r).length >= balances.length, 60_000);
    const sent = ofWatched(receiver.received).map((x) => {
      const body = JSON.parse(x.body);
      return {
        webhookId: x.headers[WEBHOOK_HEADERS.id] as string,
        accountNumber: watched,
        availableCents: Number(body.AvailableBalance),
        previousCents: Number(body.PreviousBalance),
      };
    });
    expect(sent).toHaveLength(balances.length);
    // Every notification once or twice, in a shuffled order, each to either instance, all at once.
    const arriving = [...sent, ...sent.filter(() => random() < 0.5)];
    for (let i = arriving.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [arriving[i], arriving[j]] = [arriving[j], arriving[i]];
    }
    await Promise.all(arriving.map((n) => instances[random() < 0.5 ? 0 : 1].hub.record(n)));

    const stored = await instances[1].db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM live_events WHERE account_number = $1",
      [watched],
    );
    expect(stored[0].n).toBe(balances.length);
    const fired = await instances[1].db.query<{ kind: string; n: number }>(
      "SELECT kind, count(*)::int AS n FROM alerts WHERE account_number = $1 GROUP BY kind",
      [watched],
    );
    expect(Object.fromEntries(fired.map((f) => [f.kind, f.n]))).toEqual({
      ...(want.below ? { below: want.below } : {}),
      ...(want.above ? { above: want.above } : {}),
    });
  });
});
