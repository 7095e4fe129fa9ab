// The dashboard's receiver of the bank's balance notifications (live balances), served over HTTP
// so that the real bank posts to it: forged notifications are refused and stored nowhere, each
// accepted one is stored once by webhook-id, the bank's webhooks are kept pointing here (also
// right after an account change, and replacing those registered under an old secret), and
// balance alerts fire once per crossing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_HEADERS } from "../../lib/bank-api/headers.ts";
import { signWebhook } from "../../lib/bank-api/webhook-signature.ts";
import { BankClient, setBankClient } from "../../lib/bank-client/index.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { type DashboardDb, openDashboardDb, setDashboardDb } from "../../lib/db/client.ts";
import { type LiveEvent, LiveHub, setLiveHub } from "../../lib/live/hub.ts";
import {
  accountsChanged,
  ensureBalanceWebhooks,
  ensureBankWebhooks,
  ensureBankWebhooksOnce,
  LIVE_DESCRIPTION,
  receiverToken,
  receiverUrl,
} from "../../lib/live/receiver.ts";
import { sandbox, startTestBank, type TestBank, transferBody } from "../helpers/bank.ts";
import { startMailServer } from "./webhooks-receivers.ts";

const saved = { ...process.env };
let bank: TestBank;
let db: DashboardDb;
let hub: LiveHub;
let client: BankClient;
let server: http.Server;
let base: string;
let secret: string;
let customer: { customerId: number; subscriptionKey: string; webhookSecret: string };
const events: LiveEvent[] = [];

/** The receiver route behind a plain HTTP server, as `next start` would serve it. */
async function serveReceiver(): Promise<http.Server> {
  const route = await import("../../app/api/bank-events/[token]/route.ts");
  const srv = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", base);
    const token = url.pathname.split("/").pop() ?? "";
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const answer = await route.POST(
      new Request(url, { method: req.method, headers, body: Buffer.concat(chunks) }),
      { params: Promise.resolve({ token }) },
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return srv;
}

beforeAll(async () => {
  bank = await startTestBank();
  customer = await sandbox(bank, "POST", "/sandbox/customers", { name: "Live Co" });
  secret = customer.webhookSecret;
  server = await serveReceiver();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.BANK_WEBHOOK_SECRET = secret;
  process.env.NEXTAUTH_SECRET = "receiver-test-nextauth-secret-0123456789";
  process.env.NEXTAUTH_URL = base;
  db = await openDashboardDb({ dataDir: "memory://" });
  setDashboardDb(db);
  hub = new LiveHub(db);
  await hub.start();
  hub.subscribe((e) => events.push(e));
  setLiveHub(hub);
  // The client below must be the first to ask for this key's token: only the sandbox until then.
  const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: customer.subscriptionKey });
  client = new BankClient({ bankUrl: bank.url, subscriptionKey: customer.subscriptionKey, tokens });
  setBankClient(client);
});

afterAll(async () => {
  setLiveHub(undefined);
  setBankClient(undefined);
  setDashboardDb(undefined);
  await hub?.close();
  await new Promise((r) => server?.close(r));
  await db?.close();
  await bank?.close();
  process.env = { ...saved };
});

const open = async (type: "SEN" | "DDA", balance = 0) =>
  (
    await sandbox<{ accountNumber: string }>(bank, "POST", "/sandbox/accounts", {
      customerId: customer.customerId,
      type,
      balance,
    })
  ).accountNumber;

async function post(token: string, text: string, opts: { id?: string; ts?: number; secret?: string } = {}) {
  const id = opts.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  return fetch(`${base}/api/bank-events/${token}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [WEBHOOK_HEADERS.id]: id,
      [WEBHOOK_HEADERS.timestamp]: String(ts),
      [WEBHOOK_HEADERS.signature]: signWebhook(opts.secret ?? secret, id, ts, text),
    },
    body: text,
  });
}

const stored = async () =>
  (await db.query<{ n: string }>("SELECT count(*)::text AS n FROM live_events"))[0].n;

async function hooks() {
  const r = await client.call("listWebhooks");
  if (!r.ok) throw new Error(r.error.message);
  return r.data;
}

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("live balance receiver", () => {
  it("is addressed by NEXTAUTH_URL and a token from NEXTAUTH_SECRET", () => {
    expect(receiverUrl()).toBe(`${base}/api/bank-events/${receiverToken()}`);
    expect(receiverToken()).toMatch(/^[\w-]{32}$/);
  });

  it("refuses a wrong path, signature, age or body and stores none of them; stores a good one once", async () => {
    const body = (available: string) =>
      JSON.stringify({
        AccountNumber: "5304554908",
        AvailableBalance: available,
        PreviousBalance: "000001000",
      });
    const before = events.length;
    expect((await post("not-the-token", body("000002000"))).status).toBe(404);
    expect((await post(receiverToken(), body("000002000"), { secret: "whsec_b3RoZXI=" })).status).toBe(401);
    const old = Math.floor(Date.now() / 1000) - 301;
    expect((await post(receiverToken(), body("000002000"), { ts: old })).status).toBe(401);
    const future = Math.floor(Date.now() / 1000) + 301;
    expect((await post(receiverToken(), body("000002000"), { ts: future })).status).toBe(401);
    expect((await post(receiverToken(), '{"AccountNumber":"5304554908"}')).status).toBe(400);
    expect((await post(receiverToken(), body("99999999999999999999"))).status).toBe(400);
    // A correctly signed body of more than 64 KiB is refused for its size.
    const padded = JSON.stringify({ ...JSON.parse(body("000002000")), pad: "x".repeat(70_000) });
    const big = await post(receiverToken(), padded);
    expect(big.status).toBe(400);
    expect((await big.json()).error.message).toBe("The body is too large.");
    expect(await stored()).toBe("0");
    expect(events.length).toBe(before);

    expect((await post(receiverToken(), body("000123456"), { id: "msg_once" })).status).toBe(204);
    // The bank's retry of the same notification, and a replay of that id: taken, not stored again.
    expect((await post(receiverToken(), body("000123456"), { id: "msg_once" })).status).toBe(204);
    expect((await post(receiverToken(), body("000999999"), { id: "msg_once" })).status).toBe(204);
    expect(await stored()).toBe("1");
    expect(events.slice(before)).toEqual([
      expect.objectContaining({ accountNumber: "5304554908", availableCents: 123456, previousCents: 1000 }),
    ]);
    const [row] = await db.query<{ webhook_id: string }>("SELECT webhook_id FROM live_events");
    expect(row.webhook_id).toBe("msg_once");
  });
});

describe("live balance webhooks at the bank", () => {
  it("registers one per account, replaces one registered under an old secret, and covers a new account at once", async () => {
    const first = [await open("SEN"), await open("DDA")];
    // A webhook left by this dashboard under a previous NEXTAUTH_SECRET: the bank's posts to it
    // are refused (wrong path), so it must go.
    const stale = await client.call("registerWebhook", {
      body: {
        AccountNumber: first[0],
        WebHookUrl: `${base}/api/bank-events/${"x".repeat(32)}`,
        Description: LIVE_DESCRIPTION,
      },
    });
    if (!stale.ok) throw new Error(stale.error.message);
    // Someone else's webhook on the same account stays.
    const foreign = await client.call("registerWebhook", {
      body: { AccountNumber: first[0], WebHookUrl: "https://example.com/hook", Description: "ERP" },
    });
    if (!foreign.ok) throw new Error(foreign.error.message);

    expect(await ensureBankWebhooks(client)).toBe(2);
    expect(await ensureBankWebhooks(client)).toBe(0);
    const list = await hooks();
    expect(list.map((h) => h.WebHookId)).not.toContain(stale.data.WebHookId);
    expect(list.map((h) => h.WebHookId)).toContain(foreign.data.WebHookId);
    const mine = list.filter((h) => h.WebHookUrl === receiverUrl());
    expect(mine.map((h) => h.AccountNumber).sort()).toEqual([...first].sort());
    for (const h of mine) expect(h.Description).toBe(LIVE_DESCRIPTION);

    // The periodic check waits five minutes; an account change does not.
    const t0 = Date.now();
    expect(await ensureBankWebhooksOnce(client, t0)).toBe(0);
    const later = await open("SEN");
    expect(await ensureBankWebhooksOnce(client, t0 + 60_000)).toBe(0);
    expect((await hooks()).map((h) => h.AccountNumber)).not.toContain(later);
    expect(await ensureBalanceWebhooks()).toBe(1);
    expect(
      (await hooks()).filter((h) => h.WebHookUrl === receiverUrl()).map((h) => h.AccountNumber),
    ).toContain(later);
    // The fire-and-forget form, as the code that opens a SEN account calls it.
    const another = await open("SEN");
    accountsChanged();
    await until(async () =>
      (await hooks()).some((h) => h.WebHookUrl === receiverUrl() && h.AccountNumber === another)
        ? true
        : undefined,
    );
  });
});

describe("balance alerts from the bank's notifications", () => {
  it("fire once per crossing of the low line and re-arm when the balance comes back", async () => {
    const from = await open("SEN", 1000);
    const to = await open("SEN", 0);
    await ensureBalanceWebhooks();
    await db.query(
      "INSERT INTO alert_rules (account_number, below_cents, notify_users) VALUES ($1, 50000, true)",
      [from],
    );
    const transfer = async (dollars: number) => {
      const r = await client.call("transferSen", { body: transferBody(from, to, dollars) as never });
      if (!r.ok) throw new Error(r.error.message);
    };
    const seen = (cents: number) =>
      until(() => events.find((e) => e.accountNumber === from && e.availableCents === cents));

    await transfer(600); // 1,000 → 400: below 500
    const first = await seen(40_000);
    expect(first.alerts).toEqual([expect.objectContaining({ kind: "below", thresholdCents: 50_000 })]);
    await transfer(100); // 400 → 300: still below, no second alert
    expect((await seen(30_000)).alerts).toEqual([]);
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: from, amount: 500 }); // → 800
    expect((await seen(80_000)).alerts).toEqual([]);
    await transfer(400); // 800 → 400: below again
    const fired = await until(() => {
      const f = events.filter((e) => e.accountNumber === from && e.alerts.length > 0);
      return f.length === 2 ? f : undefined;
    });
    expect(fired.map((e) => e.availableCents)).toEqual([40_000, 40_000]);
    const rows = await db.query<{ kind: string; available_cents: string }>(
      "SELECT kind, available_cents::text FROM alerts WHERE account_number = $1 ORDER BY id",
      [from],
    );
    expect(rows).toEqual([
      { kind: "below", available_cents: "40000" },
      { kind: "below", available_cents: "40000" },
    ]);
    // The bank's notifications, each stored once.
    const n = await db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM live_events WHERE account_number = $1",
      [from],
    );
    expect(n[0].n).toBe("4");
  });
});

describe("alert e-mail from the dashboard (DASHBOARD_SMTP_URL)", () => {
  it("sends one message per crossing to the rule's addresses, none while the balance stays under", {
    timeout: 120_000,
  }, async () => {
    const mail = await startMailServer();
    const mailDb = await openDashboardDb({ dataDir: "memory://" });
    const mailHub = new LiveHub(mailDb, {
      smtpUrl: mail.url,
      mailFrom: "Treasury <alerts@treasury.example>",
    });
    try {
      await mailHub.start();
      await mailDb.query(
        `INSERT INTO alert_rules (account_number, below_cents, notify_users, emails)
         VALUES ('4000', 100000, false, 'cfo@example.com, ops@example.com')`,
      );
      const note = (i: number, previousCents: number, cents: number) =>
        mailHub.record({
          webhookId: `mail_${i}`,
          accountNumber: "4000",
          availableCents: cents,
          previousCents,
        });
      await note(1, 150_000, 90_000); // crosses: one message
      await note(2, 90_000, 80_000); // still under
      await note(3, 80_000, 120_000); // back over
      await note(4, 120_000, 70_000); // crosses again
      // The test mail server looks up each client's name, which is slow where there is no DNS.
      const got = await mail.waitFor((m) => m.length >= 2, 60_000);
      await until(async () => {
        const [r] = await mailDb.query<{ n: string }>(
          "SELECT count(*)::text AS n FROM alerts WHERE emailed_at IS NOT NULL",
        );
        return r.n === "2" ? true : undefined;
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(got).toHaveLength(2);
      for (const m of got) {
        expect(m.to.sort()).toEqual(["cfo@example.com", "ops@example.com"]);
        expect(m.headers.subject).toBe("Balance alert: account 4000 fell below $1,000.00");
      }
      const now = got.map((m) => /Available balance now: (\S+)/.exec(m.text)?.[1]).sort();
      expect(now).toEqual(["$700.00", "$900.00"]);
    } finally {
      await mailHub.close();
      await mailDb.close();
      await mail.close();
    }
  });
});
