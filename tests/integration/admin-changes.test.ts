// No one administrator weakens a control: a raised limit, a granted role, a user added with a
// role that moves money, a re-enabled user and a reset of a privileged user's password wait for a
// second administrator; what tightens applies at once. Route handlers invoked as Next invokes
// them, against the real bank and a real dashboard database.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDashboardSettings } from "../../lib/admin/settings-store.ts";
import { readAudit } from "../../lib/audit/log.ts";
import { checkSignIn } from "../../lib/auth/sign-in.ts";
import { findUserById, type UserRow } from "../../lib/auth/users.ts";
import { getBankClient, setBankClient } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";
import {
  invoke,
  openTestDashboardDb,
  TEST_PASSWORD,
  type TestDashboardDb,
  testUser,
} from "../helpers/routes.ts";

process.env.NEXTAUTH_SECRET = "admin-changes-secret-0123456789abcdef";
process.env.NEXTAUTH_URL = "http://127.0.0.1:3996";

let bank: TestBank;
let dashboard: TestDashboardDb;
let db: DashboardDb;
let sen1: string;
let sen2: string;
let ada: UserRow;
let bea: UserRow;
let preparer: UserRow;

const mod = {
  settings: () => import("../../app/api/admin/settings/route.ts"),
  changes: () => import("../../app/api/admin/changes/route.ts"),
  approve: () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
  reject: () => import("../../app/api/admin/changes/[id]/reject/route.ts"),
  withdraw: () => import("../../app/api/admin/changes/[id]/withdraw/route.ts"),
  users: () => import("../../app/api/admin/users/route.ts"),
  user: () => import("../../app/api/admin/users/[id]/route.ts"),
  reset: () => import("../../app/api/admin/users/[id]/reset-password/route.ts"),
  transfers: () => import("../../app/api/transfers/route.ts"),
};

beforeAll(async () => {
  bank = await startTestBank();
  dashboard = await openTestDashboardDb("admin-changes");
  db = dashboard.db;
  const c = await sandboxCustomer(bank, "Northwind Traders LLC");
  sen1 = await c.account("SEN", 1_000_000);
  sen2 = await c.account("SEN", 10);
  process.env.BANK_API_URL = bank.url;
  process.env.BANK_SUBSCRIPTION_KEY = c.subscriptionKey;
  setBankClient(undefined);
  ada = await testUser(db, "admin", "ada@changes.example", "Ada");
  bea = await testUser(db, "admin", "bea@changes.example", "Bea");
  preparer = await testUser(db, "preparer", "preparer@changes.example", "Pat");
}, 180_000);

afterAll(async () => {
  setBankClient(undefined);
  await dashboard?.close();
  await bank?.close();
});

const putSettings = (as: UserRow, body: Record<string, unknown>) =>
  invoke(mod.settings, "PUT", "/api/admin/settings", { as, body });
const decide = (kind: "approve" | "reject" | "withdraw", as: UserRow, id: string) =>
  invoke(mod[kind], "POST", `/api/admin/changes/${id}/${kind}`, { as, params: { id } });
const pending = async (as: UserRow = bea) =>
  (await invoke(mod.changes, "GET", "/api/admin/changes", { as })).json.changes as {
    id: string;
    kind: string;
    target: string;
    summary: string;
    before: unknown;
    after: unknown;
    requestedBy: { email: string };
    requestedAt: string;
    expiresAt: string;
  }[];
const auditOf = async (action: string) => (await readAudit(db, 1000)).filter((e) => e.action === action);

async function availableCents(account: string): Promise<number> {
  const r = await (await getBankClient()).call("balance", { query: { accountNumber: account } });
  if (!r.ok) throw new Error(r.error.message);
  return Math.round(r.data.ResponseData[0].AVAILBAL * 100);
}

/**
 * The two limits these tests move, set as each test starts from them, with no change waiting: a
 * waiting change is withdrawn by its author, a lower limit applies at once, a higher one is asked
 * by one administrator and approved by the other. Each test then also runs alone.
 */
async function startFrom(limits: {
  senReleaseThresholdCents: number;
  incomingWireDualApprovalCents: number;
}) {
  for (const c of await pending()) {
    const author = c.requestedBy.email === ada.email ? ada : bea;
    expect((await decide("withdraw", author, c.id)).status).toBe(200);
  }
  const now = await getDashboardSettings(db);
  for (const [key, value] of Object.entries(limits) as [keyof typeof limits, number][]) {
    if (now[key] === value) continue;
    const r = await putSettings(bea, { [key]: value });
    if (r.status === 202) expect((await decide("approve", ada, r.json.requested[0].id)).status).toBe(200);
    else expect(r.status).toBe(200);
  }
  expect(await pending()).toEqual([]);
}
const DEFAULTS = { senReleaseThresholdCents: 25_000_000, incomingWireDualApprovalCents: 100_000_000 };

/** The defaults, and Ada's raise of the SEN release threshold to $500,000.00 waiting. */
async function raiseWaiting(): Promise<{ id: string }> {
  await startFrom(DEFAULTS);
  const r = await putSettings(ada, { senReleaseThresholdCents: 50_000_000 });
  expect(r.status).toBe(202);
  return { id: r.json.requested[0].id as string };
}

describe("a setting that weakens a control", () => {
  it("is stored as pending, not in force, with who asked, when and what", async () => {
    await startFrom(DEFAULTS);
    const r = await putSettings(ada, {
      senReleaseThresholdCents: 50_000_000,
      incomingWireDualApprovalCents: 200_000_000,
    });
    expect(r.status).toBe(202);
    expect(r.json.requested).toHaveLength(2);
    expect(r.json.settings).toEqual({
      senReleaseThresholdCents: 25_000_000,
      incomingWireDualApprovalCents: 100_000_000,
      releaseDualApprovalCents: 100_000_000,
      approvalDigestAfterMinutes: 60,
    });
    expect(await getDashboardSettings(db)).toEqual({
      senReleaseThresholdCents: 25_000_000,
      incomingWireDualApprovalCents: 100_000_000,
      releaseDualApprovalCents: 100_000_000,
      approvalDigestAfterMinutes: 60,
    });
    const list = await pending();
    const sen = list.find((c) => c.target === "senReleaseThresholdCents");
    expect(sen).toMatchObject({
      kind: "setting",
      before: 25_000_000,
      after: 50_000_000,
      summary: "SEN release threshold: $250,000.00 → $500,000.00",
      requestedBy: { email: ada.email },
    });
    expect(Date.parse(sen?.expiresAt ?? "") - Date.parse(sen?.requestedAt ?? "")).toBe(7 * 86_400_000);
    const raise = sen as { id: string };
    expect((await auditOf("admin_change.request")).map((e) => [e.actorEmail, e.result])).toContainEqual([
      ada.email,
      "pending",
    ]);
    // The settings page's own read shows the same waiting changes.
    const shown = await invoke(mod.settings, "GET", "/api/admin/settings", { as: ada });
    expect(shown.json.pending.map((c: { id: string }) => c.id)).toContain(raise.id);
  });

  it("leaves a $400,000 SEN transfer needing a second person", async () => {
    await raiseWaiting();
    const before = await availableCents(sen1);
    const r = await invoke(mod.transfers, "POST", "/api/transfers", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        AccountNumberFrom: sen1,
        AccountNumberTo: sen2,
        Amount: "400,000.00",
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.outcome).toBe("draft");
    expect(await availableCents(sen1)).toBe(before);
  });

  it("cannot be approved by the administrator who asked for it", async () => {
    const raise = await raiseWaiting();
    const r = await decide("approve", ada, raise.id);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("second_admin_required");
    expect(r.json.error.message).toMatch(/You asked for this change: a second administrator must approve it/);
    expect((await getDashboardSettings(db)).senReleaseThresholdCents).toBe(25_000_000);
    expect((await pending()).map((c) => c.id)).toContain(raise.id);
  });

  it("asking again while one waits is a 409 that names it", async () => {
    await raiseWaiting();
    const r = await putSettings(ada, { senReleaseThresholdCents: 60_000_000 });
    expect(r.status).toBe(409);
    expect(r.json.error.message).toMatch(/already waits for a second administrator/);
  });

  it("is in force once a second administrator approves it, audited, and only once", async () => {
    const raise = await raiseWaiting();
    const r = await decide("approve", bea, raise.id);
    expect(r.status).toBe(200);
    expect(r.json.change).toMatchObject({ status: "approved", decidedBy: { email: bea.email } });
    expect((await getDashboardSettings(db)).senReleaseThresholdCents).toBe(50_000_000);
    expect((await auditOf("settings.update"))[0]).toMatchObject({
      target: "senReleaseThresholdCents",
      detail: { from: 25_000_000, to: 50_000_000, requestedBy: ada.email, approvedBy: bea.email },
    });
    expect((await auditOf("admin_change.approve"))[0]).toMatchObject({
      actorEmail: bea.email,
      result: "approved",
    });
    const again = await decide("approve", bea, raise.id);
    expect(again.status).toBe(409);
    expect(again.json.error.message).toMatch(/already approved by bea@changes\.example/);
  });

  it("a change that tightens applies at once, and makes a waiting raise stale", async () => {
    await startFrom(DEFAULTS);
    expect((await putSettings(ada, { incomingWireDualApprovalCents: 200_000_000 })).status).toBe(202);
    const waiting = (await pending()).find((c) => c.target === "incomingWireDualApprovalCents");
    expect(waiting).toBeDefined();
    const lower = await putSettings(ada, { incomingWireDualApprovalCents: 50_000_000 });
    expect(lower.status).toBe(200);
    expect(lower.json.settings.incomingWireDualApprovalCents).toBe(50_000_000);
    expect(await getDashboardSettings(db)).toMatchObject({ incomingWireDualApprovalCents: 50_000_000 });
    // The raise was asked against 1,000,000.00; the limit moved since: refused and closed.
    const stale = await decide("approve", bea, waiting?.id as string);
    expect(stale.status).toBe(409);
    expect(stale.json.error.message).toMatch(/no longer applies/);
    expect(stale.json.error.message).toMatch(/\$500,000\.00, not \$1,000,000\.00/);
    expect((await getDashboardSettings(db)).incomingWireDualApprovalCents).toBe(50_000_000);
    expect((await pending()).map((c) => c.id)).not.toContain(waiting?.id);
  });

  it("a second administrator rejects it; its author withdraws it; each audited", async () => {
    await startFrom({ ...DEFAULTS, senReleaseThresholdCents: 50_000_000 });
    const rejectedBefore = (await auditOf("admin_change.reject")).length;
    const withdrawnBefore = (await auditOf("admin_change.withdraw")).length;
    const asked = await putSettings(ada, { senReleaseThresholdCents: 70_000_000 });
    const id = asked.json.requested[0].id as string;
    expect((await decide("reject", ada, id)).status).toBe(403);
    expect((await decide("withdraw", bea, id)).status).toBe(403);
    const rejected = await decide("reject", bea, id);
    expect(rejected.status).toBe(200);
    expect(rejected.json.change.status).toBe("rejected");
    const again = await putSettings(ada, { senReleaseThresholdCents: 70_000_000 });
    const withdrawn = await decide("withdraw", ada, again.json.requested[0].id);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.json.change.status).toBe("withdrawn");
    expect((await getDashboardSettings(db)).senReleaseThresholdCents).toBe(50_000_000);
    expect((await auditOf("admin_change.reject")).length).toBe(rejectedBefore + 1);
    expect((await auditOf("admin_change.withdraw")).length).toBe(withdrawnBefore + 1);
  });

  it("expires unapproved after seven days", async () => {
    await startFrom({ ...DEFAULTS, senReleaseThresholdCents: 50_000_000 });
    const asked = await putSettings(ada, { senReleaseThresholdCents: 80_000_000 });
    const id = asked.json.requested[0].id as string;
    await db.query("UPDATE admin_changes SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    const r = await decide("approve", bea, id);
    expect(r.status).toBe(409);
    expect(r.json.error.message).toMatch(/expired/);
    expect((await getDashboardSettings(db)).senReleaseThresholdCents).toBe(50_000_000);
    expect((await auditOf("admin_change.expire")).map((e) => e.detail?.changeId)).toContain(id);
  });
});

describe("users", () => {
  it("a role with more permissions waits; a lesser one applies at once", async () => {
    const u = await testUser(db, "viewer", "grant@changes.example", "Gus");
    const r = await invoke(mod.user, "PATCH", `/api/admin/users/${u.id}`, {
      as: ada,
      params: { id: u.id },
      body: { role: "approver" },
    });
    expect(r.status).toBe(202);
    expect(r.json.user.role).toBe("viewer");
    expect(r.json.pending[0]).toMatchObject({
      kind: "user.role",
      summary: `${u.email}: role viewer → approver`,
    });
    expect((await findUserById(db, u.id))?.role).toBe("viewer");
    expect((await decide("approve", ada, r.json.pending[0].id)).status).toBe(403);
    expect((await decide("approve", bea, r.json.pending[0].id)).status).toBe(200);
    expect((await findUserById(db, u.id))?.role).toBe("approver");

    const down = await invoke(mod.user, "PATCH", `/api/admin/users/${u.id}`, {
      as: ada,
      params: { id: u.id },
      body: { role: "viewer" },
    });
    expect(down.status).toBe(200);
    expect((await findUserById(db, u.id))?.role).toBe("viewer");
  });

  it("a user added with a role that moves money starts as a viewer until a second administrator approves", async () => {
    const r = await invoke(mod.users, "POST", "/api/admin/users", {
      as: ada,
      body: { email: "newapprover@changes.example", name: "Nia", role: "approver" },
    });
    expect(r.status).toBe(202);
    expect(r.json.user.role).toBe("viewer");
    expect(r.json.temporaryPassword).toBeUndefined();
    expect(r.json.invitationExpiresAt).toBeTruthy();
    expect(r.json.pending[0]).toMatchObject({ kind: "user.role", before: "viewer", after: "approver" });
    expect((await decide("approve", bea, r.json.pending[0].id)).status).toBe(200);
    expect((await findUserById(db, r.json.user.id))?.role).toBe("approver");
    // A viewer needs no second administrator.
    const viewer = await invoke(mod.users, "POST", "/api/admin/users", {
      as: ada,
      body: { email: "newviewer@changes.example", name: "Vic", role: "viewer" },
    });
    expect(viewer.status).toBe(201);
    expect(viewer.json.pending).toBeUndefined();
  });

  it("disabling applies at once; enabling again waits", async () => {
    const u = await testUser(db, "approver", "leaver@changes.example", "Lee");
    const off = await invoke(mod.user, "PATCH", `/api/admin/users/${u.id}`, {
      as: ada,
      params: { id: u.id },
      body: { disabled: true },
    });
    expect(off.status).toBe(200);
    expect((await findUserById(db, u.id))?.disabled).toBe(true);
    const on = await invoke(mod.user, "PATCH", `/api/admin/users/${u.id}`, {
      as: ada,
      params: { id: u.id },
      body: { disabled: false },
    });
    expect(on.status).toBe(202);
    expect(on.json.pending[0]).toMatchObject({ kind: "user.enable" });
    expect((await findUserById(db, u.id))?.disabled).toBe(true);
    expect((await decide("approve", bea, on.json.pending[0].id)).status).toBe(200);
    expect((await findUserById(db, u.id))?.disabled).toBe(false);
  });

  it("resetting a privileged user's password waits; the approval e-mails the person a link and gives the approver nothing", async () => {
    const u = await testUser(db, "approver", "forgot@changes.example", "Fay");
    const r = await invoke(mod.reset, "POST", `/api/admin/users/${u.id}/reset-password`, {
      as: ada,
      params: { id: u.id },
    });
    expect(r.status).toBe(202);
    expect(r.json.temporaryPassword).toBeUndefined();
    expect((await checkSignIn(db, { email: u.email, password: TEST_PASSWORD })).ok).toBe(true);
    expect((await decide("approve", ada, r.json.pending[0].id)).status).toBe(403);
    const approved = await decide("approve", bea, r.json.pending[0].id);
    expect(approved.status).toBe(200);
    expect(approved.json.temporaryPassword).toBeUndefined();
    expect((await checkSignIn(db, { email: u.email, password: TEST_PASSWORD })).ok).toBe(false);
    expect((await findUserById(db, u.id))?.password_must_change).toBe(true);
    // A viewer's reset needs no second administrator.
    const v = await testUser(db, "viewer", "viewer-forgot@changes.example", "Val");
    const now = await invoke(mod.reset, "POST", `/api/admin/users/${v.id}/reset-password`, {
      as: ada,
      params: { id: v.id },
    });
    expect(now.status).toBe(200);
    expect(now.json.temporaryPassword).toBeUndefined();
    expect(now.json.linkExpiresAt).toBeTruthy();
  });

  it("no administrator changes their own role or status, or approves a change to their own account", async () => {
    const own = await invoke(mod.user, "PATCH", `/api/admin/users/${ada.id}`, {
      as: ada,
      params: { id: ada.id },
      body: { role: "approver" },
    });
    expect(own.status).toBe(409);
    expect(
      (
        await invoke(mod.reset, "POST", `/api/admin/users/${ada.id}/reset-password`, {
          as: ada,
          params: { id: ada.id },
        })
      ).status,
    ).toBe(409);
    // Bea asks to reset Ada's password: Ada cannot approve it, though she did not ask.
    const asked = await invoke(mod.reset, "POST", `/api/admin/users/${ada.id}/reset-password`, {
      as: bea,
      params: { id: ada.id },
    });
    expect(asked.status).toBe(202);
    const refused = await decide("approve", ada, asked.json.pending[0].id);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/your own account/);
    expect((await decide("withdraw", bea, asked.json.pending[0].id)).status).toBe(200);
  });

  it("answers 404 naming the id for a malformed change id and for none, and 403 to a non-administrator", async () => {
    const bad = await decide("approve", bea, "nope");
    expect(bad.status).toBe(404);
    expect(bad.json.error.fields[0].field).toBe("id");
    expect((await decide("approve", bea, randomUUID())).status).toBe(404);
    expect((await decide("approve", preparer, randomUUID())).status).toBe(403);
    expect((await invoke(mod.changes, "GET", "/api/admin/changes", { as: preparer })).status).toBe(403);
  });
});
