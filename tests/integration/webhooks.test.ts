import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxDelivery } from "../../bank/sandbox/notify.ts";
import { centsToPaddedString } from "../../lib/bank-api/money.ts";
import type { Webhook } from "../../lib/bank-api/webhooks.ts";
import { call, newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import {
  type Received,
  type Receiver,
  startReceiver,
  verifySignature,
  waitFor,
} from "./webhooks-receivers.ts";

let bank: TestBank;
let receiver: Receiver;
beforeAll(async () => {
  bank = await startTestBank({ env: { BANK_WEBHOOK_RETRY_BASE_MS: "50" } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await bank?.close();
  await receiver?.close();
});

const deliveries = (q: Record<string, string> = {}) =>
  sandbox<SandboxDelivery[]>(bank, "GET", `/sandbox/webhook-deliveries?${new URLSearchParams(q)}`);

const forAccount = (account: string) => (r: Received[]) =>
  r.filter((x) => JSON.parse(x.body).AccountNumber === account);

describe("registering webhooks", () => {
  it("registers a webhook on the customer's account and echoes every field, Sms included", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 10);
    const r = await c.api("POST", "/v2/webhooks/register", {
      body: {
        AccountNumber: acct,
        Description: "Treasury alerts",
        WebHookUrl: "https://example.com/hooks/1",
        Emails: "cfo@example.com,ops@example.com",
        Sms: "+1 555 0100",
      },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      WebHookId: expect.stringMatching(/^wh_[0-9a-f]{24}$/),
      AccountNumber: acct,
      Description: "Treasury alerts",
      WebHookUrl: "https://example.com/hooks/1",
      Emails: "cfo@example.com,ops@example.com",
      Sms: "+1 555 0100",
      Errors: [],
    });
    const list = await c.api("GET", "/v2/webhooks/get");
    expect(list.status).toBe(200);
    expect(list.json).toEqual([
      {
        WebHookId: r.json.WebHookId,
        AccountNumber: acct,
        Description: "Treasury alerts",
        WebHookUrl: "https://example.com/hooks/1",
        Emails: "cfo@example.com,ops@example.com",
        Sms: "+1 555 0100",
      },
    ]);
  });

  it("accepts camelCase names and XML bodies, and answers XML when asked", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const camel = await c.api("POST", "/v2/webhooks/register", {
      body: { accountNumber: acct, emails: "a@example.com" },
    });
    expect(camel.json.WebHookId).toMatch(/^wh_/);
    const xml = await c.api("POST", "/v2/webhooks/register", {
      xml: `<WebHook><AccountNumber>${acct}</AccountNumber><WebHookUrl>https://example.com/x</WebHookUrl></WebHook>`,
    });
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(
      /<WebHook><WebHookId>wh_[0-9a-f]+<\/WebHookId><AccountNumber>\d+<\/AccountNumber>/,
    );
  });

  it("filters the list by account and by id", async () => {
    const c = await newCustomer(bank);
    const a = await c.account("SEN", 0);
    const b = await c.account("SEN", 0);
    const wa = (
      await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: a, Emails: "x@example.com" } })
    ).json.WebHookId;
    const wb = (
      await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: b, Emails: "y@example.com" } })
    ).json.WebHookId;
    const ids = async (query: Record<string, string>) =>
      (await c.api("GET", "/v2/webhooks/get", { query })).json.map((w: Webhook) => w.WebHookId);
    expect(await ids({})).toEqual([wa, wb]);
    expect(await ids({ accountNumber: a })).toEqual([wa]);
    expect(await ids({ webHookId: wb })).toEqual([wb]);
    expect(await ids({ accountNumber: a, webHookId: wb })).toEqual([]);
  });

  it.each([
    [{ AccountNumber: "1000000001" }, "WebHookUrl", /WebHookUrl or Emails is required/],
    [{ AccountNumber: "1000000001", WebHookUrl: "", Emails: "" }, "WebHookUrl", /required/],
    [{ AccountNumber: "1000000001", WebHookUrl: "not a url" }, "WebHookUrl", /well-formed/],
    [{ AccountNumber: "1000000001", WebHookUrl: "ftp://example.com/x" }, "WebHookUrl", /http/],
    [{ AccountNumber: "1000000001", Emails: "cfo@example.com, nobody" }, "Emails", /e-mail/],
    [{ AccountNumber: "1000000001", Emails: "a@example.com", Sms: "call me" }, "Sms", /phone/],
    [{ AccountNumber: "12ab", Emails: "a@example.com" }, "AccountNumber", /digits/],
    [{ AccountNumber: "1".repeat(21), Emails: "a@example.com" }, "AccountNumber", /at most 20/],
    [{ Emails: "a@example.com" }, "AccountNumber", /./],
    [{ AccountNumber: 1000000001, Emails: "a@example.com" }, "AccountNumber", /./],
  ])("answers 400 naming the field and writes nothing for %j", async (body, field, message) => {
    const c = await newCustomer(bank);
    const r = await c.api("POST", "/v2/webhooks/register", { body });
    expect(r.status).toBe(400);
    expect(r.json.statusCode).toBe(400);
    expect(r.json.errors).toContainEqual({ field, message: expect.stringMatching(message) });
    expect((await c.api("GET", "/v2/webhooks/get")).json).toEqual([]);
  });

  it("answers 400 for a body that is not JSON, and for a missing or overlong webHookId", async () => {
    const c = await newCustomer(bank);
    const bad = await c.api("POST", "/v2/webhooks/register", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("body");
    const noId = await c.api("DELETE", "/v2/webhooks/delete");
    expect(noId.status).toBe(400);
    expect(noId.json.errors[0].field).toBe("webHookId");
    const long = await c.api("GET", "/v2/webhooks/get", { query: { webHookId: "w".repeat(65) } });
    expect(long.status).toBe(400);
    expect(long.json.errors[0].field).toBe("webHookId");
  });

  it("answers 400 naming the field, never 500, to a wrong type or size in any field", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 0);
    const base = { AccountNumber: acct, WebHookUrl: "https://example.com/h", Emails: "a@example.com" };
    for (const field of ["AccountNumber", "Description", "WebHookUrl", "Emails", "Sms"]) {
      for (const v of [null, 1, true, [], {}, ["a@example.com"], "x".repeat(5000), "http://[::1"]) {
        const r = await c.api("POST", "/v2/webhooks/register", { body: { ...base, [field]: v } });
        expect(r.status, `${field}=${JSON.stringify(v)}`).toBeLessThan(500);
        if (r.status === 400) expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    }
    for (const q of [{ webHookId: "" }, { webHookId: "x".repeat(500) }, { accountNumber: "y".repeat(500) }]) {
      expect((await c.api("GET", "/v2/webhooks/get", { query: q })).status).toBeLessThan(500);
      expect((await c.api("DELETE", "/v2/webhooks/delete", { query: q })).status).toBe(400);
    }
    // Of those bodies only these were valid: a null optional field (not given; Description,
    // WebHookUrl, Emails and Sms each) and the one with a harmless description text.
    const kept = (await c.api("GET", "/v2/webhooks/get")).json as { Description: string }[];
    expect(kept.map((w) => w.Description).sort()).toEqual(["", "", "", "", "http://[::1"]);
  });

  it("refuses another customer's account as a business error, without saying it exists", async () => {
    const owner = await newCustomer(bank, "Owner Co");
    const other = await newCustomer(bank, "Other Co");
    const acct = await owner.account("SEN", 10);
    const r = await other.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: acct, WebHookUrl: receiver.url },
    });
    const unknown = await other.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: "9999999999", WebHookUrl: receiver.url },
    });
    expect(r.status).toBe(200);
    expect(r.json.WebHookId).toBe("");
    expect(r.json.Errors).toEqual([
      expect.objectContaining({ MESSAGEID: "E0101", FIELDNAME: "AccountNumber" }),
    ]);
    expect(unknown.json.Errors).toEqual(r.json.Errors);
    expect((await other.api("GET", "/v2/webhooks/get")).json).toEqual([]);
    // Nothing reaches the intruder's URL when the owner's balance changes.
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(forAccount(acct)(receiver.received)).toEqual([]);
  });

  it("lets a customer see and delete only its own webhooks", async () => {
    const a = await newCustomer(bank, "A Corp");
    const b = await newCustomer(bank, "B Corp");
    const acct = await a.account("SEN", 0);
    const id = (
      await a.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, Emails: "a@a.com" } })
    ).json.WebHookId;
    expect((await b.api("GET", "/v2/webhooks/get", { query: { webHookId: id } })).json).toEqual([]);
    expect((await b.api("GET", "/v2/webhooks/get", { query: { accountNumber: acct } })).json).toEqual([]);
    const del = await b.api("DELETE", "/v2/webhooks/delete", { query: { webHookId: id } });
    expect(del.status).toBe(200);
    expect(del.json).toBe("Webhook not found");
    expect((await a.api("GET", "/v2/webhooks/get")).json.map((w: Webhook) => w.WebHookId)).toEqual([id]);
  });

  it("deletes a webhook with a string answer, in JSON or as one XML element", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 0);
    const reg = async () =>
      (await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, Emails: "a@a.com" } }))
        .json.WebHookId as string;
    const one = await reg();
    const two = await reg();
    const json = await c.api("DELETE", "/v2/webhooks/delete", { query: { webHookId: one } });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toMatch(/application\/json/);
    expect(json.json).toBe(`Webhook ${one} deleted`);
    const xml = await c.api("DELETE", "/v2/webhooks/delete", {
      query: { webHookId: two },
      headers: { accept: "application/xml" },
    });
    expect(xml.text).toBe(`<?xml version="1.0" encoding="utf-8"?><string>Webhook ${two} deleted</string>`);
    expect((await c.api("GET", "/v2/webhooks/get")).json).toEqual([]);
    expect((await c.api("DELETE", "/v2/webhooks/delete", { query: { webHookId: one } })).json).toBe(
      "Webhook not found",
    );
  });

  it("requires the key and the token", async () => {
    const r = await call(bank.url, "GET", "/v2/webhooks/get");
    expect(r.status).toBe(401);
  });
});

describe("delivering notifications", () => {
  it("POSTs the zero-padded cents body, signed with the customer's secret", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 100);
    await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: receiver.url } });
    const before = Math.floor(Date.now() / 1000);
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 12.34 });
    const [n] = forAccount(acct)(await receiver.waitFor((r) => forAccount(acct)(r).length >= 1));
    const after = Math.ceil(Date.now() / 1000);
    expect(n.body).toBe(
      `{"AccountNumber":"${acct}","AvailableBalance":"000011234","PreviousBalance":"000010000"}`,
    );
    expect(n.headers["content-type"]).toBe("application/json");
    expect(n.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    // Signed when sent: between the deposit and its arrival.
    expect(Number(n.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(before);
    expect(Number(n.headers["webhook-timestamp"])).toBeLessThanOrEqual(after);
    expect(n.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifySignature(c.webhookSecret, n.headers, n.body)).toBe(true);
    // The signature binds the body, the id and the time: change one and it no longer verifies.
    expect(verifySignature(c.webhookSecret, n.headers, n.body.replace("11234", "99999"))).toBe(false);
    const other = await newCustomer(bank);
    expect(verifySignature(other.webhookSecret, n.headers, n.body)).toBe(false);

    const [attempt] = await waitFor(async () => {
      const d = await deliveries({ messageId: String(n.headers["webhook-id"]) });
      return d.length && d[0].state === "delivered" ? d : undefined;
    });
    expect(attempt).toMatchObject({
      channel: "http",
      attempt: 1,
      ok: true,
      statusCode: 200,
      accountNumber: acct,
    });
  });

  it("notifies both sides of a SEN transfer, and nothing for a refused one", async () => {
    const payer = await newCustomer(bank, "Payer LLC");
    const payee = await newCustomer(bank, "Payee LLC");
    const from = await payer.account("SEN", 500);
    const to = await payee.account("SEN", 20);
    await payer.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: from, WebHookUrl: receiver.url },
    });
    await payee.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: to, WebHookUrl: receiver.url },
    });
    const t = await payer.api("POST", "/v2/account/transfersen", {
      body: { AccountNumberFrom: from, AccountNumberTo: to, Amount: 123.45 },
    });
    expect(t.json.ERROR).toEqual([]);
    const refused = await payer.api("POST", "/v2/account/transfersen", {
      body: { AccountNumberFrom: from, AccountNumberTo: to, Amount: 10_000 },
    });
    expect(refused.json.ERROR).toHaveLength(1);
    await receiver.waitFor((r) => forAccount(from)(r).length >= 1 && forAccount(to)(r).length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    const payerSide = forAccount(from)(receiver.received);
    const payeeSide = forAccount(to)(receiver.received);
    expect(payerSide.map((x) => JSON.parse(x.body))).toEqual([
      { AccountNumber: from, AvailableBalance: centsToPaddedString(37655), PreviousBalance: "000050000" },
    ]);
    expect(payeeSide.map((x) => JSON.parse(x.body))).toEqual([
      { AccountNumber: to, AvailableBalance: centsToPaddedString(14345), PreviousBalance: "000002000" },
    ]);
    expect(verifySignature(payer.webhookSecret, payerSide[0].headers, payerSide[0].body)).toBe(true);
    expect(verifySignature(payee.webhookSecret, payeeSide[0].headers, payeeSide[0].body)).toBe(true);
  });

  it("notifies the hold of an outgoing wire once; settlement leaves the available balance and sends nothing", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 300);
    await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: receiver.url } });
    const wire = await c.api("POST", "/v2/payment", {
      body: {
        originator_account_number: acct,
        amount: 120.5,
        beneficiary_name: "KITT M",
        beneficiary_account_number: "987654321",
        beneficiary_address1: "1 MAIN ST",
      },
    });
    expect(wire.json.payment_status).toBe("In-Progress");
    await receiver.waitFor((r) => forAccount(acct)(r).length >= 1);
    await sandbox(bank, "POST", "/sandbox/settle", {});
    await new Promise((r) => setTimeout(r, 500));
    expect(forAccount(acct)(receiver.received).map((x) => JSON.parse(x.body))).toEqual([
      { AccountNumber: acct, AvailableBalance: "000017950", PreviousBalance: "000030000" },
    ]);
  });

  it("sends one notification per webhook and channel, and never an SMS", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 1);
    const second = await startReceiver();
    try {
      await c.api("POST", "/v2/webhooks/register", {
        body: {
          AccountNumber: acct,
          WebHookUrl: receiver.url,
          Emails: "ops@example.com",
          Sms: "+1 555 0100",
        },
      });
      await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: second.url } });
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 2 });
      await receiver.waitFor((r) => forAccount(acct)(r).length >= 1);
      await second.waitFor((r) => forAccount(acct)(r).length >= 1);
      const d = await waitFor(async () => {
        const all = await deliveries({ accountNumber: acct });
        return all.length >= 3 ? all : undefined;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect((await deliveries({ accountNumber: acct })).map((x) => x.channel).sort()).toEqual([
        "email",
        "http",
        "http",
      ]);
      expect(new Set(d.map((x) => x.messageId)).size).toBe(3);
      expect(forAccount(acct)(receiver.received)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("retries a receiver that fails, with the same webhook-id, until it answers 2xx", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 50);
    const flaky = await startReceiver({ answer: (n) => (n < 2 ? 500 : 204) });
    try {
      await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: flaky.url } });
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 5 });
      const got = await flaky.waitFor((r) => r.length >= 3);
      const ids = new Set(got.map((r) => r.headers["webhook-id"]));
      expect(ids.size).toBe(1);
      for (const r of got) expect(verifySignature(c.webhookSecret, r.headers, r.body)).toBe(true);
      const attempts = await waitFor(async () => {
        const d = await deliveries({ accountNumber: acct });
        return d.length >= 3 && d.at(-1)?.state === "delivered" ? d : undefined;
      });
      expect(attempts.map((a) => [a.attempt, a.ok, a.statusCode])).toEqual([
        [1, false, 500],
        [2, false, 500],
        [3, true, 204],
      ]);
      expect(attempts[0].error).toBe("HTTP 500");
      await new Promise((r) => setTimeout(r, 300));
      expect(flaky.received).toHaveLength(3);
    } finally {
      await flaky.close();
    }
  });

  it("keeps trying a receiver that is down, and delivers once it is up", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 50);
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();
    await c.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: acct, WebHookUrl: `http://127.0.0.1:${port}/hook` },
    });
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 5 });
    const failed = await waitFor(async () => {
      const d = await deliveries({ accountNumber: acct });
      return d.length >= 2 ? d : undefined;
    });
    expect(failed[0]).toMatchObject({ ok: false, statusCode: null, state: "pending" });
    expect(failed[0].error).toMatch(/ECONNREFUSED/);
    const back = await startReceiver({ port });
    try {
      const [n] = await back.waitFor((r) => r.length >= 1, 30_000);
      expect(JSON.parse(n.body)).toMatchObject({ AccountNumber: acct, AvailableBalance: "000005500" });
    } finally {
      await back.close();
    }
  });

  it("gives up after a day of failures and marks the notification failed", async () => {
    const startedSec = Math.floor(Date.now() / 1000);
    const own = await startTestBank({ env: { BANK_WEBHOOK_RETRY_BASE_MS: "50" } });
    const down = await startReceiver({ answer: () => 503 });
    try {
      const c = await newCustomer(own);
      const acct = await c.account("SEN", 5);
      await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: down.url } });
      await sandbox(own, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 1 });
      await down.waitFor((r) => r.length >= 2);
      await sandbox(own, "POST", "/sandbox/clock", { advanceSeconds: 24 * 3600 + 60 });
      const d = await waitFor(async () => {
        const all = await sandbox<SandboxDelivery[]>(
          own,
          "GET",
          `/sandbox/webhook-deliveries?accountNumber=${acct}`,
        );
        return all.at(-1)?.state === "failed" ? all : undefined;
      });
      expect(d.every((a) => a.ok === false && a.statusCode === 503)).toBe(true);
      // The signature's timestamp follows the wall clock, not the moved sandbox clock, so that
      // receivers comparing it with their own clock keep accepting.
      const lastTs = Number(down.received.at(-1)?.headers["webhook-timestamp"]);
      expect(lastTs).toBeGreaterThanOrEqual(startedSec);
      expect(lastTs).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      const count = down.received.length;
      await new Promise((r) => setTimeout(r, 500));
      expect(down.received.length).toBe(count);
    } finally {
      await own.close();
      await down.close();
    }
  });

  it("stops calling a deleted webhook", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("SEN", 5);
    const down = await startReceiver({ answer: () => 500 });
    try {
      const id = (
        await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: acct, WebHookUrl: down.url } })
      ).json.WebHookId;
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 1 });
      await down.waitFor((r) => r.length >= 1);
      await c.api("DELETE", "/v2/webhooks/delete", { query: { webHookId: id } });
      await new Promise((r) => setTimeout(r, 300));
      const count = down.received.length;
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 1 });
      await new Promise((r) => setTimeout(r, 800));
      expect(down.received.length).toBe(count);
    } finally {
      await down.close();
    }
  });
});
