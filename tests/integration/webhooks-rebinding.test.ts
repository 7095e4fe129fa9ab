// A webhook host whose name answers differently over time (DNS rebinding), with the sandbox off:
// the bank resolves it through the test's own name service, where 127.0.0.2 is an address the
// bank may reach (BANK_WEBHOOK_ALLOW, standing for a public receiver) and 127.0.0.1 one it must
// not. A name that turns private after registration is refused at delivery, and a delivery dials
// the address it checked, whatever the name answers a moment later.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBank, type TestBank } from "../helpers/bank.ts";
import { directCustomer, type Receiver, startReceiver, waitFor } from "./webhooks-receivers.ts";

/** Each host's answers in turn; the last one is given again for every later question. */
const answers = new Map<string, string[][]>();
const asked = new Map<string, number>();

async function lookupHost(host: string): Promise<string[]> {
  const n = asked.get(host) ?? 0;
  asked.set(host, n + 1);
  const list = answers.get(host);
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return list[Math.min(n, list.length - 1)];
}

let bank: TestBank;
let outside: Receiver;
let inside: Receiver;

beforeAll(async () => {
  outside = await startReceiver({ host: "127.0.0.2" });
  // The same port on the address the bank must not reach: a connection that slipped through
  // would land here.
  inside = await startReceiver({ host: "127.0.0.1", port: outside.port });
  bank = await startTestBank({
    env: { BANK_SANDBOX: "off", BANK_WEBHOOK_ALLOW: "127.0.0.2", BANK_WEBHOOK_RETRY_BASE_MS: "50" },
    lookupHost,
  });
});

afterAll(async () => {
  await bank?.close();
  await outside?.close();
  await inside?.close();
});

async function attemptsOf(accountNumber: string) {
  return waitFor(async () => {
    const a = await bank.running.bank.db.query<{ ok: boolean | null; error: string | null }>(
      `SELECT a.ok, a.error FROM delivery_attempts a JOIN outbox o ON o.id = a.outbox_id
       JOIN webhooks w ON w.id = o.webhook_id WHERE w.account_number = $1`,
      [accountNumber],
    );
    return a.length > 0 && a.every((x) => x.ok !== null) ? a : undefined;
  }, 30_000);
}

describe("webhook hosts whose address changes", () => {
  it("refuses the delivery when the name turns to a loopback address after registration", async () => {
    const host = "turns-private.example";
    answers.set(host, [["127.0.0.2"], ["127.0.0.1"]]);
    const c = await directCustomer(bank, "Rebinding Co", 100);
    const reg = await c.register({ WebHookUrl: `http://${host}:${outside.port}/hook` });
    expect(reg.status).toBe(200);
    expect(reg.json.WebHookId).toMatch(/^wh_/);

    await c.credit();
    const attempts = await attemptsOf(c.accountNumber);
    expect(attempts).toEqual([
      {
        ok: false,
        error: `refused: ${host} resolves to 127.0.0.1, a loopback, private or special-purpose address`,
      },
    ]);
    // The delivery asked the name again rather than trusting the registration's answer.
    expect(asked.get(host)).toBe(2);
    expect(inside.received).toEqual([]);
    expect(outside.received).toEqual([]);
  });

  it("connects to the address it checked, though the name answers a loopback address right after", async () => {
    const host = "flips-after-check.example";
    // Registration, then the delivery's check, see the allowed address; every later answer is loopback.
    answers.set(host, [["127.0.0.2"], ["127.0.0.2"], ["127.0.0.1"]]);
    const c = await directCustomer(bank, "Rebinding Co", 100);
    const reg = await c.register({ WebHookUrl: `http://${host}:${outside.port}/hook` });
    expect(reg.status).toBe(200);

    await c.credit();
    await outside.waitFor((r) => r.length === 1, 30_000);
    expect(await attemptsOf(c.accountNumber)).toEqual([{ ok: true, error: null }]);
    expect(outside.received[0].headers.host).toBe(`${host}:${outside.port}`);
    expect(inside.received).toEqual([]);
  });

  it("refuses a name with any loopback address among its answers, at registration and at delivery", async () => {
    const host = "mixed-answers.example";
    answers.set(host, [["127.0.0.2", "127.0.0.1"]]);
    const c = await directCustomer(bank, "Rebinding Co", 100);
    const delivered = outside.received.length;
    const refused = await c.register({ WebHookUrl: `http://${host}:${outside.port}/hook` });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([
      { field: "WebHookUrl", message: expect.stringMatching(/resolves to 127\.0\.0\.1/) },
    ]);

    // Registered while the name answered only the allowed address, then it gained a loopback one.
    const later = "gains-loopback.example";
    answers.set(later, [["127.0.0.2"], ["127.0.0.2", "127.0.0.1"]]);
    expect((await c.register({ WebHookUrl: `http://${later}:${outside.port}/hook` })).status).toBe(200);
    await c.credit();
    expect(await attemptsOf(c.accountNumber)).toEqual([
      {
        ok: false,
        error: expect.stringMatching(/^refused: gains-loopback\.example resolves to 127\.0\.0\.1/),
      },
    ]);
    expect(inside.received).toEqual([]);
    expect(outside.received).toHaveLength(delivered);
  });
});
