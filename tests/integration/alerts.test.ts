// Webhook management, balance-alert rules, the notifications panel and the live event stream,
// through their route handlers (a real signed session cookie) against the real bank: roles are
// enforced, bad input is a 400 naming the field and changes nothing, every change is audited,
// the dashboard's own webhooks cannot be deleted, and the stream sends only the user's accounts
// and resumes from Last-Event-ID without losing or repeating an event.
import type { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Role } from "../../lib/auth/permissions.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { BankClient, setBankClient, TokenManager } from "../../lib/bank-client/index.ts";
import { type DashboardDb, openDashboardDb, setDashboardDb } from "../../lib/db/client.ts";
import { LiveHub, setLiveHub } from "../../lib/live/hub.ts";
import { receiverUrl } from "../../lib/live/receiver.ts";
import { resetAccountCache } from "../../lib/live/visibility.ts";
import { sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";
import { cookieFor, invoke, routeRequest, testUser } from "../helpers/routes.ts";

const SECRET = "alerts-test-nextauth-secret-0123456789ab";
const saved = { ...process.env };
let bank: TestBank;
let db: DashboardDb;
let hub: LiveHub;
let client: BankClient;
let sen: string;
let dda: string;
const users = {} as Record<Role, UserRow>;

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const mod = {
  webhooks: () => import("../../app/api/webhooks/route.ts"),
  webhook: () => import("../../app/api/webhooks/[id]/route.ts"),
  rules: () => import("../../app/api/alerts/route.ts"),
  rule: () => import("../../app/api/alerts/[accountNumber]/route.ts"),
  notifications: () => import("../../app/api/notifications/route.ts"),
  events: () => import("../../app/api/events/route.ts"),
};

beforeAll(async () => {
  bank = await startTestBank();
  const c = await sandboxCustomer(bank, "Alerts Co");
  sen = await c.account("SEN", 2_000);
  dda = await c.account("DDA", 5_000);
  Object.assign(process.env, {
    NEXTAUTH_SECRET: SECRET,
    NEXTAUTH_URL: "http://127.0.0.1:3999",
    BANK_API_URL: bank.url,
    BANK_SUBSCRIPTION_KEY: c.subscriptionKey,
    BANK_WEBHOOK_SECRET: c.webhookSecret,
  });
  delete process.env.DASHBOARD_SMTP_URL;
  resetAccountCache();
  db = await openDashboardDb({ dataDir: "memory://" });
  setDashboardDb(db);
  hub = new LiveHub(db);
  await hub.start();
  setLiveHub(hub);
  const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: c.subscriptionKey });
  client = new BankClient({ bankUrl: bank.url, subscriptionKey: c.subscriptionKey, tokens });
  setBankClient(client);
  for (const role of ["viewer", "preparer", "admin"] as Role[])
    users[role] = await testUser(db, role, `${role}@alerts.example`, `Alerts ${role}`);
});

afterAll(async () => {
  setLiveHub(undefined);
  setBankClient(undefined);
  setDashboardDb(undefined);
  await hub?.close();
  await db?.close();
  await bank?.close();
  process.env = { ...saved };
});

async function bankHooks() {
  const r = await client.call("listWebhooks");
  if (!r.ok) throw new Error(r.error.message);
  return r.data;
}

const audit = async (action: string) =>
  db.query<{ result: string; target: string; actor_email: string }>(
    "SELECT result, target, actor_email FROM audit_log WHERE action = $1 ORDER BY id",
    [action],
  );

describe("webhook management", () => {
  it("lists, registers and deletes at the bank by role, audited, refusing bad input by field", async () => {
    expect((await invoke(mod.webhooks, "GET", "/api/webhooks")).status).toBe(401);
    const empty = await invoke(mod.webhooks, "GET", "/api/webhooks", { as: users.viewer });
    expect(empty.status).toBe(200);
    expect(empty.json.accounts.map((a: { accountNumber: string }) => a.accountNumber).sort()).toEqual(
      [sen, dda].sort(),
    );
    const body = { accountNumber: sen, description: "ERP", url: "https://erp.example.com/hook", emails: "" };
    expect((await invoke(mod.webhooks, "POST", "/api/webhooks", { as: users.viewer, body })).status).toBe(
      403,
    );

    const before = (await bankHooks()).length;
    const bad = [
      [{ accountNumber: sen, url: "", emails: "" }, ["url", "emails"]],
      [{ accountNumber: sen, url: "not a url", emails: "" }, ["url"]],
      [{ accountNumber: sen, url: "ftp://x.example/a", emails: "" }, ["url"]],
      [{ accountNumber: sen, url: "", emails: "ops@example.com, nobody" }, ["emails"]],
      [{ accountNumber: "", url: "https://x.example", emails: "" }, ["accountNumber"]],
    ] as const;
    for (const [b, fields] of bad) {
      const r = await invoke(mod.webhooks, "POST", "/api/webhooks", { as: users.preparer, body: b });
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.json.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([...fields].sort());
    }
    expect(
      (await invoke(mod.webhooks, "POST", "/api/webhooks", { as: users.preparer, body: { url: 5 } })).status,
    ).toBe(400);
    expect((await bankHooks()).length).toBe(before);

    const made = await invoke(mod.webhooks, "POST", "/api/webhooks", {
      as: users.preparer,
      body: { ...body, emails: "ops@example.com,  cfo@example.com" },
    });
    expect(made.status).toBe(200);
    const id = made.json.webhook.id as string;
    const atBank = (await bankHooks()).find((h) => h.WebHookId === id);
    expect(atBank).toMatchObject({
      AccountNumber: sen,
      WebHookUrl: body.url,
      Description: "ERP",
      Emails: expect.stringContaining("cfo@example.com"),
    });
    const listed = await invoke(mod.webhooks, "GET", "/api/webhooks", { as: users.viewer });
    expect(listed.json.webhooks).toContainEqual(expect.objectContaining({ id, owner: "other" }));

    expect(
      (await invoke(mod.webhook, "DELETE", `/api/webhooks/${id}`, { as: users.viewer, params: { id } }))
        .status,
    ).toBe(403);
    const del = await invoke(mod.webhook, "DELETE", `/api/webhooks/${id}`, {
      as: users.preparer,
      params: { id },
    });
    expect(del.status).toBe(200);
    expect((await bankHooks()).map((h) => h.WebHookId)).not.toContain(id);
    expect(
      (await invoke(mod.webhook, "DELETE", "/api/webhooks/x", { as: users.preparer, params: { id } })).status,
    ).toBe(404);
    expect(await audit("webhook.register")).toEqual([
      { result: "ok", target: sen, actor_email: "preparer@alerts.example" },
    ]);
    expect((await audit("webhook.delete"))[0]).toEqual({
      result: "ok",
      target: sen,
      actor_email: "preparer@alerts.example",
    });
  });

  it("shows the dashboard's live-balance webhooks as its own and refuses to delete them", async () => {
    const r = await client.call("registerWebhook", {
      body: { AccountNumber: dda, WebHookUrl: receiverUrl() as string, Description: "live" },
    });
    if (!r.ok) throw new Error(r.error.message);
    const id = r.data.WebHookId;
    const listed = await invoke(mod.webhooks, "GET", "/api/webhooks", { as: users.admin });
    expect(listed.json.webhooks).toContainEqual(expect.objectContaining({ id, owner: "live" }));
    const del = await invoke(mod.webhook, "DELETE", `/api/webhooks/${id}`, {
      as: users.admin,
      params: { id },
    });
    expect(del.status).toBe(409);
    expect((await bankHooks()).map((h) => h.WebHookId)).toContain(id);
    expect((await audit("webhook.delete")).at(-1)?.result).toBe("refused: dashboard's own");
  });
});

describe("balance alert rules", () => {
  it("refuses a threshold that is not a positive amount with two decimals, or a bad address, saving nothing", async () => {
    const put = (body: unknown, as: Role = "preparer") =>
      invoke(mod.rule, "PUT", `/api/alerts/${sen}`, { as: users[as], body, params: { accountNumber: sen } });
    for (const below of ["12.345", "-5", "0", "0.00", "abc", "1,23.00", "1e3"]) {
      const r = await put({ below, above: "", notifyUsers: true, emails: "" });
      expect(r.status, below).toBe(400);
      expect(r.json.error.fields).toEqual([expect.objectContaining({ field: "below" })]);
    }
    const noLine = await put({ below: "", above: "", notifyUsers: true, emails: "" });
    expect(noLine.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["below"]);
    const badMail = await put({
      below: "100.00",
      notifyUsers: true,
      emails: "ops@example.com, not-an-address",
    });
    expect(badMail.status).toBe(400);
    expect(badMail.json.error.fields).toEqual([
      { field: "emails", message: '"not-an-address" is not an e-mail address' },
    ]);
    const crossed = await put({ below: "500.00", above: "400.00", notifyUsers: true, emails: "" });
    expect(crossed.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["above"]);
    expect((await put({ below: "500.00" }, "viewer")).status).toBe(403);
    const other = await invoke(mod.rule, "PUT", "/api/alerts/1234567", {
      as: users.preparer,
      body: { below: "5.00" },
      params: { accountNumber: "1234567" },
    });
    expect(other.status).toBe(404);
    const rules = await invoke(mod.rules, "GET", "/api/alerts", { as: users.viewer });
    expect(rules.json.rules).toEqual([]);
    expect(await audit("alert_rule.create")).toEqual([]);
  });

  it("saves a rule in cents, registers the bank's e-mail webhook for its addresses and removes it with the rule", async () => {
    const saved = await invoke(mod.rule, "PUT", `/api/alerts/${sen}`, {
      as: users.preparer,
      body: { below: "1,500.25", above: "", notifyUsers: true, emails: "treasurer@example.com" },
      params: { accountNumber: sen },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.rule).toMatchObject({
      accountNumber: sen,
      belowCents: 150_025,
      aboveCents: null,
      emails: "treasurer@example.com",
      belowArmed: true,
    });
    const rules = await invoke(mod.rules, "GET", "/api/alerts", { as: users.viewer });
    expect(rules.json.emailDelivery).toBe("bank");
    const mailHook = (await bankHooks()).find((h) => h.Emails.includes("treasurer@example.com"));
    expect(mailHook?.AccountNumber).toBe(sen);
    const listed = await invoke(mod.webhooks, "GET", "/api/webhooks", { as: users.viewer });
    expect(listed.json.webhooks).toContainEqual(
      expect.objectContaining({ id: mailHook?.WebHookId, owner: "alert-email" }),
    );
    const id = mailHook?.WebHookId as string;
    expect(
      (await invoke(mod.webhook, "DELETE", `/api/webhooks/${id}`, { as: users.admin, params: { id } }))
        .status,
    ).toBe(409);
    const gone = await invoke(mod.rule, "DELETE", `/api/alerts/${sen}`, {
      as: users.preparer,
      params: { accountNumber: sen },
    });
    expect(gone.status).toBe(200);
    expect((await bankHooks()).map((h) => h.WebHookId)).not.toContain(id);
    expect((await audit("alert_rule.create")).length).toBe(1);
    expect((await audit("alert_rule.delete")).length).toBe(1);
  });
});

/** Reads Server-Sent Events from a route's streamed answer. */
function sse(res: Response) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const messages: { id?: string; event?: string; data?: string }[] = [];
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let i = buffer.indexOf("\n\n");
      while (i >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const m: { id?: string; event?: string; data?: string } = {};
        for (const line of block.split("\n")) {
          const [k, ...rest] = line.split(": ");
          if (k === "id" || k === "event" || k === "data") m[k] = rest.join(": ");
        }
        if (m.event) messages.push(m);
        i = buffer.indexOf("\n\n");
      }
    }
  })();
  return {
    messages,
    async waitFor(n: number, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (Date.now() > end) throw new Error(`only ${messages.length} of ${n} events arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    pump,
  };
}

async function openStream(as: Role, lastEventId?: number) {
  const handler = ((await mod.events()) as unknown as Record<string, Handler>).GET;
  const abort = new AbortController();
  const res = await handler(
    routeRequest("GET", "/api/events", {
      cookie: await cookieFor(users[as]),
      headers: lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) },
      signal: abort.signal,
    }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
  return { ...sse(res), close: () => abort.abort() };
}

let n = 0;
const note = (accountNumber: string, availableCents: number) =>
  hub.record({
    webhookId: `msg_alerts_${++n}`,
    accountNumber,
    availableCents,
    previousCents: availableCents + 100,
  });

describe("live events and the notifications panel", () => {
  it("holds one user to LIVE_STREAMS_PER_USER open streams; a closed one frees its place", async () => {
    process.env.LIVE_STREAMS_PER_USER = "3";
    try {
      const handler = ((await mod.events()) as unknown as Record<string, Handler>).GET;
      const request = async (as: Role) => {
        const abort = new AbortController();
        const res = await handler(
          routeRequest("GET", "/api/events", { cookie: await cookieFor(users[as]), signal: abort.signal }),
          { params: Promise.resolve({}) },
        );
        return { res, close: () => abort.abort() };
      };
      const open = [await request("viewer"), await request("viewer"), await request("viewer")];
      expect(open.map((o) => o.res.status)).toEqual([200, 200, 200]);
      const refused = await request("viewer");
      expect(refused.res.status).toBe(429);
      expect(refused.res.headers.get("retry-after")).toBe("10");
      expect((await refused.res.json()).error.code).toBe("too_many_streams");
      // Another user has places of their own.
      const other = await request("admin");
      expect(other.res.status).toBe(200);
      other.close();
      open[0].close();
      const again = await request("viewer");
      expect(again.res.status).toBe(200);
      // The stream's own cancel (the runtime's, when the browser goes) frees a place too.
      await again.res.body?.cancel();
      const last = await request("viewer");
      expect(last.res.status).toBe(200);
      for (const o of [...open, last]) o.close();
    } finally {
      delete process.env.LIVE_STREAMS_PER_USER;
    }
  });

  it("sends only the user's accounts, and a reconnect with Last-Event-ID gets what it missed once", async () => {
    const a = await openStream("viewer");
    await note("9999999999", 1); // not this customer's account
    const e1 = await note(sen, 100_000);
    const [m1] = await a.waitFor(1);
    expect(m1.event).toBe("balance");
    expect(JSON.parse(m1.data as string)).toMatchObject({
      seq: e1?.seq,
      accountNumber: sen,
      availableCents: 100_000,
    });
    expect(m1.id).toBe(String(e1?.seq));
    a.close();

    // Missed while disconnected.
    const e2 = await note(dda, 200_000);
    const e3 = await note(sen, 300_000);
    const b = await openStream("viewer", e1?.seq);
    const e4 = await note(dda, 400_000);
    const got = await b.waitFor(3);
    await new Promise((r) => setTimeout(r, 300));
    expect(b.messages.map((m) => JSON.parse(m.data as string).seq)).toEqual([e2?.seq, e3?.seq, e4?.seq]);
    b.close();

    const list = await invoke(mod.notifications, "GET", "/api/notifications?limit=10", { as: users.viewer });
    expect(list.status).toBe(200);
    expect(list.json.items.map((i: { seq: number }) => i.seq)).toEqual([e4?.seq, e3?.seq, e2?.seq, e1?.seq]);
    expect(list.json.unread).toBe(4);
    expect(got.length).toBe(3);

    const markOne = await invoke(mod.notifications, "POST", "/api/notifications", {
      as: users.viewer,
      body: { seq: e3?.seq },
    });
    expect(markOne.status).toBe(200);
    const after = await invoke(mod.notifications, "GET", "/api/notifications", { as: users.viewer });
    expect(after.json.unread).toBe(3);
    expect(after.json.items.find((i: { seq: number }) => i.seq === e3?.seq).read).toBe(true);
    // Read marks are per user.
    expect(
      (await invoke(mod.notifications, "GET", "/api/notifications", { as: users.admin })).json.unread,
    ).toBe(4);
    await invoke(mod.notifications, "POST", "/api/notifications", { as: users.viewer, body: { all: true } });
    expect(
      (await invoke(mod.notifications, "GET", "/api/notifications", { as: users.viewer })).json.unread,
    ).toBe(0);
    const bad = await invoke(mod.notifications, "POST", "/api/notifications", {
      as: users.viewer,
      body: { seq: "x" },
    });
    expect(bad.status).toBe(400);
  });
});
