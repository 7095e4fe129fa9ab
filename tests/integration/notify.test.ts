// E-mail notifications (real SMTP server, and the sandbox mail box) and where webhooks may be
// delivered when the sandbox is off.
import dns from "node:dns/promises";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxDelivery, SandboxMail } from "../../bank/sandbox/notify.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { call, newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import {
  directCustomer,
  type MailServer,
  type Receiver,
  startMailServer,
  startReceiver,
  waitFor,
} from "./webhooks-receivers.ts";

describe("e-mail through SMTP", () => {
  let bank: TestBank;
  let smtp: MailServer;
  beforeAll(async () => {
    smtp = await startMailServer({ user: "bank-mailer", pass: "s3cret pass/word" });
    bank = await startTestBank({
      env: {
        BANK_SMTP_URL: smtp.url,
        BANK_MAIL_FROM: "Acme Bank Alerts <alerts@acmebank.test>",
        BANK_WEBHOOK_RETRY_BASE_MS: "50",
      },
    });
  });
  afterAll(async () => {
    await bank?.close();
    await smtp?.close();
  });

  it("sends one message to every listed address with the account and both balances in dollars", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 1234.5);
    const reg = await c.api("POST", "/v2/webhooks/register", {
      body: {
        AccountNumber: acct,
        Description: "Low balance watch",
        Emails: "cfo@example.com, treasury@example.com",
        Sms: "+1 555 0100, +44 20 7946 0000",
      },
    });
    expect(reg.json.Errors).toEqual([]);
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 765.5 });
    const [m] = (await smtp.waitFor((all) => all.some((x) => x.text.includes(acct)))).filter((x) =>
      x.text.includes(acct),
    );
    expect(m.to.sort()).toEqual(["cfo@example.com", "treasury@example.com"]);
    expect(m.from).toBe("alerts@acmebank.test");
    expect(m.headers.from).toBe("Acme Bank Alerts <alerts@acmebank.test>");
    expect(m.headers.to).toBe("cfo@example.com, treasury@example.com");
    expect(m.headers.subject).toBe(`Balance changed on account ${acct}: $2,000.00`);
    expect(m.headers["message-id"]).toMatch(/^<msg_[0-9a-f]{32}@acmebank\.test>$/);
    expect(m.text).toContain(`The available balance of account ${acct} has changed.`);
    expect(m.text).toContain("Previous balance:  $1,234.50");
    expect(m.text).toContain("Available balance: $2,000.00");
    expect(m.text).toContain("Change:            +$765.50");
    expect(m.text).toContain("Alert: Low balance watch");
    // The server saw the configured login; the attempt is recorded, with no SMS channel anywhere.
    expect(smtp.logins).toContainEqual({ user: "bank-mailer", pass: "s3cret pass/word" });
    const d = await waitFor(async () => {
      const all = await sandbox<SandboxDelivery[]>(
        bank,
        "GET",
        `/sandbox/webhook-deliveries?accountNumber=${acct}`,
      );
      // An attempt is logged as it goes out: wait for its outcome.
      return all.length && all.every((x) => x.ok !== null) ? all : undefined;
    });
    expect(d).toEqual([
      expect.objectContaining({ channel: "email", ok: true, state: "delivered", target: reg.json.Emails }),
    ]);
    // With SMTP configured the message went out, not into the sandbox mail box.
    expect(await sandbox(bank, "GET", "/sandbox/mail?to=cfo@example.com")).toEqual([]);
  });

  it("never writes the SMTP password or the webhook secret into the delivery records", async () => {
    const all = await sandbox<SandboxDelivery[]>(bank, "GET", "/sandbox/webhook-deliveries");
    const text = JSON.stringify(all);
    expect(text).not.toContain("s3cret");
    expect(text).not.toContain("whsec_");
  });

  it("retries when the SMTP server is unreachable, then delivers", async () => {
    const down = await startMailServer();
    const port = Number(new URL(down.url).port);
    await down.close();
    const own = await startTestBank({
      env: { BANK_SMTP_URL: `smtp://127.0.0.1:${port}`, BANK_WEBHOOK_RETRY_BASE_MS: "50" },
    });
    try {
      const c = await newCustomer(own);
      const acct = await c.account("SEN", 1);
      await c.api("POST", "/v2/webhooks/register", {
        body: { AccountNumber: acct, Emails: "ops@example.com" },
      });
      await sandbox(own, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 1 });
      const failed = await waitFor(async () => {
        const all = await sandbox<SandboxDelivery[]>(
          own,
          "GET",
          `/sandbox/webhook-deliveries?accountNumber=${acct}`,
        );
        return all.length && all.every((x) => x.ok !== null) ? all : undefined;
      });
      expect(failed[0]).toMatchObject({ channel: "email", ok: false, state: "pending" });
      expect(failed[0].error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
      const back = await startMailServer({ port });
      try {
        const [m] = await back.waitFor((all) => all.length >= 1, 30_000);
        expect(m.headers.subject).toBe(`Balance changed on account ${acct}: $2.00`);
      } finally {
        await back.close();
      }
    } finally {
      await own.close();
    }
  });
});

describe("e-mail without SMTP", () => {
  let bank: TestBank;
  beforeAll(async () => {
    bank = await startTestBank();
  });
  afterAll(() => bank?.close());

  it("files the message in the sandbox mail box, once per balance change", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 50);
    await c.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: acct, Emails: "ap@example.com,ar@example.com" },
    });
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 0.25 });
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 1 });
    const mail = await waitFor(async () => {
      const m = await sandbox<SandboxMail[]>(bank, "GET", "/sandbox/mail?to=AP@example.com");
      return m.filter((x) => x.subject.includes(acct)).length >= 2 ? m : undefined;
    });
    const mine = mail.filter((x) => x.subject.includes(acct));
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      to: "ap@example.com, ar@example.com",
      subject: `Balance changed on account ${acct}: $50.25`,
      messageId: expect.stringMatching(/^msg_/),
    });
    expect(mine[0].text).toContain("Previous balance:  $50.00");
    expect(mine[1].text).toContain("Available balance: $51.25");
    const one = await sandbox<SandboxMail[]>(bank, "GET", `/sandbox/mail?messageId=${mine[1].messageId}`);
    expect(one).toEqual([mine[1]]);
  });

  it("keeps the sandbox views behind X-Sandbox-Key", async () => {
    expect((await call(bank.url, "GET", "/sandbox/mail")).status).toBe(401);
    expect((await call(bank.url, "GET", "/sandbox/webhook-deliveries")).status).toBe(401);
    const bad = await call(bank.url, "GET", "/sandbox/webhook-deliveries?channel=sms", {
      headers: { [BANK_HEADERS.sandboxKey]: bank.sandboxKey },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("channel");
  });
});

async function attemptsOf(bank: TestBank, account: string) {
  return bank.running.bank.db.query<{ ok: boolean | null; error: string | null; state: string }>(
    `SELECT a.ok, a.error, o.state FROM delivery_attempts a JOIN outbox o ON o.id = a.outbox_id
     WHERE o.payload->>'AccountNumber' = $1 ORDER BY a.id`,
    [account],
  );
}

describe("delivery destinations with the sandbox off", () => {
  let bank: TestBank;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    bank = await startTestBank({ env: { BANK_SANDBOX: "off", BANK_WEBHOOK_RETRY_BASE_MS: "50" } });
  });
  afterAll(async () => {
    await bank?.close();
    await receiver?.close();
  });

  it.each([
    "http://127.0.0.1:9/hook",
    "http://10.1.2.3/hook",
    "http://172.20.0.1/hook",
    "http://192.168.1.10/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/hook",
    "http://[::1]/hook",
    "http://[fd00::1]/hook",
    "http://[fe80::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://localhost:3000/hook",
  ])("refuses to register %s with a 400 naming WebHookUrl", async (url) => {
    const c = await directCustomer(bank, "Direct Co", 10_000);
    const r = await c.register({ WebHookUrl: url });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([
      { field: "WebHookUrl", message: expect.stringMatching(/private|loopback/) },
    ]);
  });

  it("refuses a host name that resolves to a private address at registration, and at delivery once, without retrying", async () => {
    const host = os.hostname();
    const addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    const c = await directCustomer(bank, "Direct Co", 10_000);
    const reg = await c.register({ WebHookUrl: `http://${host}:${receiver.port}/hook` });
    if (!addresses.every((a) => /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|f[cd])/.test(a))) {
      // This machine's name resolves to a public address: the delivery check cannot be shown with it.
      expect(reg.status).toBe(200);
      return;
    }
    // Refused at registration, once resolved; stored anyway (as before the check), it is refused at delivery.
    expect(reg.status).toBe(400);
    expect(reg.json.errors[0]).toEqual({ field: "WebHookUrl", message: expect.stringMatching(/private/) });
    const stored = await c.register({ WebHookUrl: "https://hooks.example.com/in" });
    await bank.running.bank.db.query("UPDATE webhooks SET url = $1 WHERE id = $2", [
      `http://${host}:${receiver.port}/hook`,
      stored.json.WebHookId,
    ]);
    await c.credit();
    const attempts = await waitFor(async () => {
      const a = await attemptsOf(bank, c.accountNumber);
      return a.length && a.every((x) => x.ok !== null) ? a : undefined;
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(await attemptsOf(bank, c.accountNumber)).toEqual([
      { ok: false, error: expect.stringMatching(/refused.*private/), state: "failed" },
    ]);
    expect(attempts).toHaveLength(1);
    expect(receiver.received).toEqual([]);
  });

  it("refuses delivery to a private address stored before the sandbox was turned off", async () => {
    const c = await directCustomer(bank, "Direct Co", 10_000);
    const reg = await c.register({ WebHookUrl: "https://hooks.example.com/in" });
    await bank.running.bank.db.query("UPDATE webhooks SET url = $1 WHERE id = $2", [
      receiver.url,
      reg.json.WebHookId,
    ]);
    await c.credit();
    await waitFor(async () => {
      const a = await attemptsOf(bank, c.accountNumber);
      return a.length && a.every((x) => x.ok !== null) ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(await attemptsOf(bank, c.accountNumber)).toEqual([
      { ok: false, error: expect.stringMatching(/refused/), state: "failed" },
    ]);
    expect(receiver.received).toEqual([]);
  });

  it("removes the sandbox API altogether", async () => {
    const r = await call(bank.url, "GET", "/sandbox/webhook-deliveries", {
      headers: { [BANK_HEADERS.sandboxKey]: bank.sandboxKey },
    });
    expect(r.status).toBe(404);
  });
});

describe("BANK_WEBHOOK_ALLOW", () => {
  it("lets a listed address receive webhooks with the sandbox off", async () => {
    const receiver = await startReceiver();
    const bank = await startTestBank({
      env: { BANK_SANDBOX: "off", BANK_WEBHOOK_ALLOW: "hooks.internal, 127.0.0.0/8" },
    });
    try {
      const c = await directCustomer(bank, "Direct Co", 10_000);
      const reg = await c.register({ WebHookUrl: receiver.url });
      expect(reg.status).toBe(200);
      await c.credit();
      const [n] = await receiver.waitFor((r) => r.length >= 1);
      expect(JSON.parse(n.body)).toEqual({
        AccountNumber: c.accountNumber,
        AvailableBalance: "000020000",
        PreviousBalance: "000010000",
      });
    } finally {
      await bank.close();
      await receiver.close();
    }
  });
});
