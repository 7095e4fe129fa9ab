// A password someone else knew is temporary: its session may read, change the password and sign
// out, and nothing else. Administrators no longer set passwords (a reset or an invitation e-mails a
// one-time link, credential-links.test.ts), but accounts reset before that may still hold a
// temporary password, and the guard stays for them. A reset now ends every session, and the person
// who chose a new password through the link casts no vote that moves money for a day. Route
// handlers invoked as Next invokes them, against the real bank and a real dashboard database; what
// the bank and the dashboard hold is read back before and after each refusal.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { authOptions } from "../../lib/auth/options.ts";
import { hashPassword } from "../../lib/auth/passwords.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import type { BankClient } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { sandbox, type TestBank } from "../helpers/bank.ts";
import {
  type ApiRouteFile,
  cookieFor,
  invoke,
  listApiRoutes,
  openRouteWorld,
  type RouteWorld,
  STATE_CHANGING_METHODS,
  testUser,
  wireForm,
} from "../helpers/routes.ts";

let bank: TestBank;
let world: RouteWorld;
let db: DashboardDb;
let client: BankClient;
let dda: string;
let sen1: string;
let sen2: string;
let admin: UserRow;
let admin2: UserRow;
let approverA: UserRow;
let approverB: UserRow;
let preparer: UserRow;

/**
 * Route handlers a session whose password must change may still call, each with why. Every other
 * exported POST, PUT, PATCH and DELETE under app/api must refuse it.
 */
const OPEN_BEFORE_PASSWORD_CHANGE: Record<string, string> = {
  "POST /api/profile/password": "the change itself",
  "POST /api/auth/[...nextauth]": "next-auth: sign-in, session refresh and sign-out",
  "POST /api/bank-events/[token]": "the bank's notifications: no session, signed by the bank",
  "POST /api/account-link": "no session: a one-time link e-mailed to the person",
  "POST /api/account-link/use": "no session: a one-time link e-mailed to the person",
};

const mod = {
  decide: () => import("../../app/api/incoming-wires/[paymentId]/route.ts"),
  queue: () => import("../../app/api/incoming-wires/route.ts"),
  reset: () => import("../../app/api/admin/users/[id]/reset-password/route.ts"),
  approve: () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
  users: () => import("../../app/api/admin/users/route.ts"),
  changePassword: () => import("../../app/api/profile/password/route.ts"),
  useLink: () => import("../../app/api/account-link/use/route.ts"),
  me: () => import("../../app/api/me/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
};

beforeAll(async () => {
  // Settlement only when a test asks, so every state is observable.
  world = await openRouteWorld("change-first", {
    customer: "Northwind Traders LLC",
    bankEnv: { BANK_SETTLE_AFTER_SECONDS: "86400" },
  });
  ({ bank, db } = world);
  client = world.client as BankClient;
  const c = world.customer;
  dda = await c.account("DDA", 500_000);
  sen1 = await c.account("SEN", 1_000_000);
  sen2 = await c.account("SEN", 10);
  admin = await testUser(db, "admin", "admin@first.example");
  admin2 = await testUser(db, "admin", "admin2@first.example");
  approverA = await testUser(db, "approver", "approver-a@first.example");
  approverB = await testUser(db, "approver", "approver-b@first.example");
  preparer = await testUser(db, "preparer", "preparer@first.example");
}, 600_000);

afterAll(async () => {
  await world?.close();
});

/** Signs in through the credentials provider, as the sign-in form does; a session cookie after. */
async function signIn(user: UserRow, password: string): Promise<string> {
  const provider = authOptions().providers.find((p) => p.id === "credentials") as unknown as {
    options: { authorize: (c: Record<string, string>, r: unknown) => Promise<{ id: string } | null> };
  };
  const signedIn = await provider.options.authorize(
    { email: user.email, password },
    { headers: { "x-forwarded-for": "192.0.2.77" } },
  );
  expect(signedIn?.id).toBe(user.id);
  return cookieFor(user);
}

/**
 * An administrator's reset of the user's password (a privileged user's waits for a second
 * administrator); the token of the one-time link e-mailed to the person.
 */
async function resetPassword(of: UserRow): Promise<string> {
  const r = await invoke(mod.reset, "POST", `/api/admin/users/${of.id}/reset-password`, {
    as: admin,
    params: { id: of.id },
  });
  if (r.status !== 200) {
    expect(r.status).toBe(202);
    const id = r.json.pending[0].id as string;
    const approved = await invoke(mod.approve, "POST", `/api/admin/changes/${id}/approve`, {
      as: admin2,
      params: { id },
    });
    expect(approved.status).toBe(200);
  }
  const mail = await db.query<{ text: string }>(
    `SELECT text FROM mail_outbox WHERE "to" = $1 ORDER BY created_at DESC LIMIT 1`,
    [of.email],
  );
  return /\/account-link#([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "")?.[1] ?? "";
}

/**
 * A temporary password an administrator set before links replaced them, still waiting for its
 * user to replace it: the state the guard is for.
 */
async function legacyTemporaryPassword(of: UserRow): Promise<string> {
  const temporary = `temporary ${randomUUID()}`;
  await db.query(
    "UPDATE users SET password_hash = $2, password_must_change = true, sessions_from = now() WHERE id = $1",
    [of.id, await hashPassword(temporary)],
  );
  return temporary;
}

async function changePassword(cookie: string, current: string, next: string) {
  return invoke(mod.changePassword, "POST", "/api/profile/password", {
    cookie,
    body: { currentPassword: current, newPassword: next, confirmPassword: next },
  });
}

async function incomingWire(amount: number) {
  const r = await sandbox<{ payment_id: string; payment_timestamp: string }>(
    bank,
    "POST",
    "/sandbox/incoming-wires",
    { accountNumber: dda, amount, originatorName: `FIRST ${randomUUID().slice(0, 8).toUpperCase()}` },
  );
  return { id: r.payment_id, timestamp: r.payment_timestamp };
}

const vote = (cookie: string, w: { id: string; timestamp: string }) =>
  invoke(mod.decide, "POST", `/api/incoming-wires/${w.id}`, {
    cookie,
    params: { paymentId: w.id },
    body: { accountNumber: dda, action: "approve", paymentTimestamp: w.timestamp },
  });

async function bankStatus(paymentId: string): Promise<string> {
  const r = await client.call("listPayments", { query: { account_number: dda, payment_id: paymentId } });
  if (!r.ok) throw new Error(r.error.message);
  return r.data.find((p) => p.payment_id === paymentId)?.payment_status ?? "missing";
}

/** Everything the dashboard stores, table by table (the bank token aside: the client may renew it). */
async function dashboardState(): Promise<Record<string, unknown[]>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'bank_tokens'
     ORDER BY table_name`,
  );
  const out: Record<string, unknown[]> = {};
  for (const { table_name } of tables)
    out[table_name] = await db.query(`SELECT * FROM "${table_name}" ORDER BY 1`);
  return out;
}

/** What the bank holds for the customer: each account's balance and every payment of the days around. */
async function bankState() {
  const out: Record<string, unknown> = {};
  for (const account of [dda, sen1, sen2]) {
    const b = await client.call("balance", { query: { accountNumber: account } });
    if (!b.ok) throw new Error(b.error.message);
    out[`balance ${account}`] = b.data.ResponseData;
  }
  const begin = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const p = await client.call("listPayments", { query: { account_number: dda, begin_date: begin } });
  if (!p.ok) throw new Error(p.error.message);
  out.payments = p.data;
  return out;
}

describe("a pending password reset", () => {
  it("cannot cast the deciding vote on a two-approver incoming wire; after the change it can", async () => {
    const wire = await incomingWire(1_200_000);
    const first = await vote(await cookieFor(approverB), wire);
    expect(first.status).toBe(200);
    expect(first.json.outcome).toBe("awaiting_second_approval");

    const temporary = await legacyTemporaryPassword(approverA);
    const cookie = await signIn(approverA, temporary);
    const refused = await vote(cookie, wire);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("password_change_required");
    expect(refused.json.error.message).toMatch(/choose your own password first/);
    expect(await bankStatus(wire.id)).toBe("Pre-Approval");
    const queued = (await invoke(mod.queue, "GET", "/api/incoming-wires", { as: approverB })).json;
    const row = queued.wires.find((w: { paymentId: string }) => w.paymentId === wire.id);
    expect(row.votes.map((v: { userEmail: string }) => v.userEmail)).toEqual([approverB.email]);

    // Reading is still open (the pages send the user to /change-password); the change itself is allowed.
    expect((await invoke(mod.queue, "GET", "/api/incoming-wires", { cookie })).status).toBe(200);
    expect((await changePassword(cookie, temporary, "approver a's own passphrase")).status).toBe(200);
    const decided = await vote(cookie, wire);
    expect(decided.status).toBe(200);
    expect(decided.json.outcome).toBe("sent");
    expect(await bankStatus(wire.id)).toBe("In-Progress");
  });

  it("a reset ends every session, and the password chosen through its link votes on no money for a day", async () => {
    const wire = await incomingWire(1_300_000);
    expect((await vote(await cookieFor(approverB), wire)).json.outcome).toBe("awaiting_second_approval");
    const approverC = await testUser(db, "approver", "approver-c@first.example");
    const before = await cookieFor(approverC);
    const token = await resetPassword(approverC);
    expect((await invoke(mod.me, "GET", "/api/me", { cookie: before })).status).toBe(401);
    const chosen = await invoke(mod.useLink, "POST", "/api/account-link/use", {
      body: {
        token,
        newPassword: "approver c's own passphrase",
        confirmPassword: "approver c's own passphrase",
      },
    });
    expect(chosen.status).toBe(200);
    const cookie = await signIn(approverC, "approver c's own passphrase");
    const refused = await vote(cookie, wire);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("credentials_recent");
    expect(await bankStatus(wire.id)).toBe("Pre-Approval");
    // A day later, the same person decides it.
    await db.query("UPDATE users SET credentials_changed_at = now() - interval '25 hours' WHERE id = $1", [
      approverC.id,
    ]);
    const decided = await vote(cookie, wire);
    expect(decided.status).toBe(200);
    expect(decided.json.outcome).toBe("sent");
  });

  it("is refused by every state-changing route handler under app/api, and nothing changes", async () => {
    const routes = listApiRoutes();
    expect(routes.length).toBeGreaterThan(30);
    // Something each money route would act on if it let the session through.
    const wire = await incomingWire(1_500_000);
    await vote(await cookieFor(approverB), wire);
    const drafted = await invoke(mod.wires, "POST", "/api/wires", {
      as: preparer,
      body: wireForm(dda, { amount: "2,500.00" }),
    });
    expect(drafted.status).toBe(200);
    const draftId = drafted.json.draft.id as string;

    // An administrator whose password another administrator reset: every permission, a temporary password.
    const pendingAdmin = await testUser(db, "admin", "admin-pending@first.example");
    const temporary = await legacyTemporaryPassword(pendingAdmin);
    const cookie = await signIn(pendingAdmin, temporary);

    const bodies: Record<string, unknown> = {
      "POST /api/incoming-wires/[paymentId]": {
        accountNumber: dda,
        action: "approve",
        paymentTimestamp: wire.timestamp,
      },
      "POST /api/drafts/[id]/release": { version: 1 },
      "POST /api/drafts/[id]/reject": { version: 1, reason: "not ours" },
      "POST /api/transfers": {
        idempotencyKey: randomUUID(),
        AccountNumberFrom: sen1,
        AccountNumberTo: sen2,
        Amount: "1,000.00",
      },
      "PUT /api/admin/settings": { senReleaseThresholdCents: 99_999_999_00 },
      "POST /api/admin/users": { email: "new@first.example", name: "New", role: "admin" },
      "PATCH /api/admin/users/[id]": { role: "viewer" },
    };
    const paramsFor = (r: ApiRouteFile) => ({
      id: r.path.includes("/drafts/") ? draftId : approverB.id,
      paymentId: wire.id,
      accountNumber: dda,
    });
    const calls = routes.flatMap((r) =>
      STATE_CHANGING_METHODS.map((method) => ({ route: r, method, name: `${method} ${r.path}` })),
    );

    const dashboardBefore = await dashboardState();
    const bankBefore = await bankState();
    const answered: string[] = [];
    const open: string[] = [];
    for (const { route, method, name } of calls) {
      const m = await route.load();
      if (typeof m[method] !== "function") continue;
      if (name in OPEN_BEFORE_PASSWORD_CHANGE) {
        open.push(name);
        continue;
      }
      const r = await invoke(route.load, method, route.path, {
        cookie,
        params: paramsFor(route),
        body: bodies[name] ?? {},
      });
      answered.push(`${name} ${r.status} ${r.json?.error?.code}`);
    }
    expect(answered.length).toBeGreaterThan(15);
    expect(answered.filter((a) => !a.endsWith(" 403 password_change_required"))).toEqual([]);
    // Every exemption names a handler that exists: a removed route leaves no stale hole in the list.
    expect(open.sort()).toEqual(Object.keys(OPEN_BEFORE_PASSWORD_CHANGE).sort());
    expect(await dashboardState()).toEqual(dashboardBefore);
    expect(await bankState()).toEqual(bankBefore);

    // After the change, the same session reaches the routes' own rules.
    expect((await changePassword(cookie, temporary, "the pending admin's own")).status).toBe(200);
    const afterwards = await vote(cookie, wire);
    expect(afterwards.status).toBe(200);
    expect(afterwards.json.outcome).toBe("sent");
  });

  it("a reset takes effect at once, even for a user whose row was read a moment earlier", async () => {
    const user = await testUser(db, "approver", "quick@first.example");
    const wire = await incomingWire(10);
    // A read fills the short user cache with the row before the reset.
    expect((await invoke(mod.queue, "GET", "/api/incoming-wires", { as: user })).status).toBe(200);
    await db.query(
      "UPDATE users SET password_must_change = true, sessions_from = now() - interval '1 hour' WHERE id = $1",
      [user.id],
    );
    const r = await vote(await cookieFor(user), wire);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("password_change_required");
    expect(await bankStatus(wire.id)).toBe("Pre-Approval");
  });
});

describe("a new user's first password", () => {
  it("is the person's own: nobody signs in to an invited account until its link is used", async () => {
    const created = await invoke(mod.users, "POST", "/api/admin/users", {
      as: admin,
      body: { email: "newcomer@first.example", name: "Newcomer", role: "viewer" },
    });
    expect(created.status).toBe(201);
    expect(created.json.user.resetPending).toBe(true);
    expect(created.json.temporaryPassword).toBeUndefined();
    const mail = await db.query<{ text: string }>(`SELECT text FROM mail_outbox WHERE "to" = $1`, [
      "newcomer@first.example",
    ]);
    const token = /\/account-link#([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "")?.[1] ?? "";
    const chosen = await invoke(mod.useLink, "POST", "/api/account-link/use", {
      body: { token, newPassword: "the newcomer's own", confirmPassword: "the newcomer's own" },
    });
    expect(chosen.status).toBe(200);
    const user = { ...created.json.user } as UserRow;
    const cookie = await signIn(user, "the newcomer's own");
    expect((await invoke(mod.me, "GET", "/api/me", { cookie })).json.resetPending).toBe(false);
  });
});
