// Alert e-mail in the default setup: `npm start` points the dashboard's SMTP at the bank's sandbox
// mail box, so a rule's addresses hear of each crossing once, from the dashboard, and never get
// the bank's webhook e-mail (one message per balance change). Real bank, real SMTP, real rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { saveRule } from "../../lib/alerts/rules.ts";
import { BankClient, TokenManager } from "../../lib/bank-client/index.ts";
import { type DashboardDb, openDashboardDb } from "../../lib/db/client.ts";
import { LiveHub } from "../../lib/live/hub.ts";
import { call, sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";

let bank: TestBank;
let db: DashboardDb;
let hub: LiveHub;
let client: BankClient;
let account: string;

beforeAll(async () => {
  bank = await startTestBank({ env: { BANK_SANDBOX_SMTP_PORT: "0" } });
  const c = await sandboxCustomer(bank, "Alert Mail Co");
  account = await c.account("SEN", 2_000);
  db = await openDashboardDb({ dataDir: "memory://" });
  const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: c.subscriptionKey });
  client = new BankClient({ bankUrl: bank.url, subscriptionKey: c.subscriptionKey, tokens });
  hub = new LiveHub(db, {
    smtpUrl: bank.running.sandboxSmtpUrl,
    mailFrom: "Treasury <t@treasury.example>",
    getBank: async () => client,
  });
  await hub.start();
});

afterAll(async () => {
  await hub?.close();
  await db?.close();
  await bank?.close();
});

const mailbox = async (to: string) =>
  (
    await call<{ to: string; subject: string; text: string; messageId: string }[]>(
      bank.url,
      "GET",
      "/sandbox/mail",
      { query: { to }, headers: { "X-Sandbox-Key": bank.sandboxKey } },
    )
  ).json;

async function until<T>(fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("alert e-mail through the bank's sandbox mail box", () => {
  it("has no SMTP receiver unless BANK_SANDBOX_SMTP_PORT is set", async () => {
    const plain = await startTestBank();
    try {
      expect(plain.running.sandboxSmtpUrl).toBeUndefined();
    } finally {
      await plain.close();
    }
    expect(bank.running.sandboxSmtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
  });

  it("sends one message per crossing, none for changes on the same side, and registers no bank e-mail webhook", {
    timeout: 60_000,
  }, async () => {
    const to = "cfo@alertmail.example";
    await saveRule(
      db,
      client,
      account,
      { belowCents: 100_000, aboveCents: null, notifyUsers: false, emails: to },
      { actorId: null, actorEmail: "admin@alertmail.example", ip: null },
      "smtp",
    );
    const hooks = await client.call("listWebhooks");
    expect(hooks.ok && hooks.data.filter((h) => h.Emails.includes(to))).toEqual([]);

    const note = (i: number, previousCents: number, cents: number) =>
      hub.record({ webhookId: `mb_${i}`, accountNumber: account, availableCents: cents, previousCents });
    await note(1, 150_000, 90_000); // crosses
    await note(2, 90_000, 80_000); // still under
    await note(3, 80_000, 120_000); // back over
    await note(4, 120_000, 119_000); // over still
    await note(5, 119_000, 70_000); // crosses again
    const got = await until(async () => {
      const m = await mailbox(to);
      return m.length >= 2 ? m : undefined;
    });
    await until(async () => {
      const [r] = await db.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM alerts WHERE emailed_at IS NOT NULL",
      );
      return r.n === "2" ? true : undefined;
    });
    expect(await mailbox(to)).toHaveLength(2);
    // The account by its name beside its masked number, as the dashboard shows it, never the bare number.
    const accounts = await client.call("accountList");
    const name = accounts.ok
      ? accounts.data.ResponseData.flatMap((d) => d.CUSTACCT).find((a) => a.ACTNBR === account)?.SHORTNAME
      : undefined;
    expect(name).toBeTruthy();
    for (const m of got) {
      expect(m.to).toBe(to);
      expect(m.subject).toBe(`Balance alert: ${name} ••••${account.slice(-4)} fell below $1,000.00`);
      expect(m.text).toContain(
        `The available balance of ${name} ••••${account.slice(-4)} fell below $1,000.00.`,
      );
      expect(m.text).not.toContain(account);
      expect(m.messageId).toMatch(/^alert-\d+@treasury\.example$/);
    }
    expect(got.map((m) => /Available balance now: (\S+)/.exec(m.text)?.[1]).sort()).toEqual([
      "$700.00",
      "$900.00",
    ]);
  });
});
