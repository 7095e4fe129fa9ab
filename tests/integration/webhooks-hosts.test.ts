// A slow receiver gets at most BANK_WEBHOOK_HOST_CONCURRENCY deliveries at once, so it cannot
// hold every delivery slot while other receivers' notifications wait. With the sandbox off, no
// special-purpose address receives anything, however it is written.
import dns from "node:dns/promises";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import { directCustomer, type Receiver, startReceiver, waitFor } from "./webhooks-receivers.ts";

let bank: TestBank;
let slow: Receiver;
let fast: Receiver;
beforeAll(async () => {
  bank = await startTestBank({
    env: { BANK_WEBHOOK_CONCURRENCY: "8", BANK_WEBHOOK_HOST_CONCURRENCY: "2" },
  });
  // Slow by the test's hand, not by a clock: it answers nothing until released.
  slow = await startReceiver({ held: true });
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
    await fast.waitFor((r) => r.length === 1, 30_000);
    // The fast receiver was served while the slow one still held its first two, unanswered.
    expect(slow.received.length).toBe(2);
    expect(slow.inFlight()).toBe(2);

    slow.release();
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

// Every range of the IANA special-purpose registries, and the IPv6 forms that carry an IPv4
// address: each one refused with the sandbox off, whatever way the address is written.
const SPECIAL = [
  "[::127.0.0.1]", // IPv4-compatible loopback
  "[::7f00:1]",
  "[64:ff9b::a9fe:a9fe]", // NAT64 of 169.254.169.254
  "[64:ff9b::127.0.0.1]",
  "[64:ff9b:1::a9fe:a9fe]", // local-use NAT64
  "[2002:a9fe:a9fe::]", // 6to4 of 169.254.169.254
  "[2002:7f00:1::1]",
  "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", // Teredo
  "[::ffff:169.254.169.254]", // IPv4-mapped
  "[::ffff:10.0.0.1]",
  "[::ffff:0:7f00:1]", // IPv4-translated
  "[::]",
  "[100::1]", // discard-only
  "[2001:db8::1]", // documentation
  "[3fff::1]",
  "[2001:2::1]", // benchmarking
  "[2620:4f:8000::1]", // AS112
  "[fec0::1]", // site-local
  "[ff02::1]", // multicast
  "[5f00::1]", // SRv6
  "198.18.0.1", // benchmarking
  "198.19.255.254",
  "100.64.0.1", // shared address space
  "192.0.0.8", // IETF protocol assignments
  "192.0.2.1", // documentation
  "198.51.100.7",
  "203.0.113.9",
  "192.88.99.1", // 6to4 relay anycast
  "192.31.196.1",
  "192.52.193.1",
  "192.175.48.1",
  "224.0.0.1", // multicast
  "255.255.255.255", // limited broadcast
  "0x7f000001", // 127.0.0.1 written as a number
  "127.1",
  "localhost.", // a fully qualified name's final dot
  "app.localhost.",
  `${os.hostname()}.`, // resolves to this machine
];

// Public addresses, written in the same forms, stay allowed.
const PUBLIC = ["8.8.8.8", "[2606:4700:4700::1111]", "[::ffff:8.8.8.8]", "[64:ff9b::808:808]"];

describe("special-purpose destinations with the sandbox off", () => {
  let bank: TestBank;
  let receiver: Receiver;
  let hostnameIsLocal = false;
  beforeAll(async () => {
    receiver = await startReceiver();
    bank = await startTestBank({ env: { BANK_SANDBOX: "off", BANK_WEBHOOK_RETRY_BASE_MS: "50" } });
    const addresses = (await dns.lookup(os.hostname(), { all: true })).map((a) => a.address);
    hostnameIsLocal = addresses.every((a) => a.startsWith("127.") || a === "::1");
  });
  afterAll(async () => {
    await bank?.close();
    await receiver?.close();
  });

  it.each(SPECIAL)("refuses to register http://%s with a 400 naming WebHookUrl", async (host) => {
    if (host === `${os.hostname()}.` && !hostnameIsLocal) return;
    const c = await directCustomer(bank, "Special Hosts Co", 100);
    const r = await c.register({ WebHookUrl: `http://${host}:${receiver.port}/hook` });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([
      { field: "WebHookUrl", message: expect.stringMatching(/special-purpose/) },
    ]);
  });

  it.each(PUBLIC)("registers the public address http://%s", async (host) => {
    const c = await directCustomer(bank, "Special Hosts Co", 100);
    const r = await c.register({ WebHookUrl: `http://${host}/hook` });
    expect(r.status).toBe(200);
    expect(r.json.WebHookId).toMatch(/^wh_/);
  });

  it("refuses delivery to every one of them when stored before the sandbox was turned off", async () => {
    const c = await directCustomer(bank, "Special Hosts Co", 100);
    const urls = SPECIAL.filter((h) => hostnameIsLocal || h !== `${os.hostname()}.`).map(
      (h) => `http://${h}:${receiver.port}/hook`,
    );
    for (const url of urls) {
      const reg = await c.register({ WebHookUrl: "https://hooks.example.com/in" });
      expect(reg.json.WebHookId).toMatch(/^wh_/);
      await bank.running.bank.db.query("UPDATE webhooks SET url = $1 WHERE id = $2", [
        url,
        reg.json.WebHookId,
      ]);
    }
    await c.credit();
    const attempts = await waitFor(async () => {
      const a = await bank.running.bank.db.query<{ url: string; ok: boolean | null; error: string | null }>(
        `SELECT w.url, a.ok, a.error FROM delivery_attempts a JOIN outbox o ON o.id = a.outbox_id
         JOIN webhooks w ON w.id = o.webhook_id WHERE w.account_number = $1`,
        [c.accountNumber],
      );
      return a.length === urls.length && a.every((x) => x.ok !== null) ? a : undefined;
    }, 30_000);
    for (const url of urls)
      expect(attempts.find((a) => a.url === url)).toEqual({
        url,
        ok: false,
        error: expect.stringMatching(/^refused: .*special-purpose/),
      });
    expect(receiver.received).toEqual([]);
  });
});
