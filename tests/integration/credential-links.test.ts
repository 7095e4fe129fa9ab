// No credential passes through an administrator: an invitation or a reset e-mails a one-time link
// to the person, who chooses their own password; every session ends on a reset; a role change shows
// the second administrator what happened to the account's credentials; a user invited or reset in
// the last day casts no vote that moves money; a lost device is removed through the same kind of
// link, with a second administrator for anyone who moves or approves money. Route handlers run
// against the real bank and a real dashboard database.
import { randomUUID } from "node:crypto";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { issueCredentialLink } from "../../lib/auth/credential-links.ts";
import { enableTotp } from "../../lib/auth/second-factor.ts";
import { checkSignIn } from "../../lib/auth/sign-in.ts";
import { newTotpSecret } from "../../lib/auth/totp.ts";
import { findUserById, type UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { mailFor } from "../../lib/inbox/digest.ts";
import {
  cookieFor,
  invoke,
  openRouteWorld,
  type RouteWorld,
  TEST_PASSWORD,
  testUser,
} from "../helpers/routes.ts";

const mod = {
  users: () => import("../../app/api/admin/users/route.ts"),
  user: () => import("../../app/api/admin/users/[id]/route.ts"),
  reset: () => import("../../app/api/admin/users/[id]/reset-password/route.ts"),
  removeDevice: () => import("../../app/api/admin/users/[id]/remove-second-factor/route.ts"),
  changes: () => import("../../app/api/admin/changes/route.ts"),
  approve: () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
  linkInfo: () => import("../../app/api/account-link/route.ts"),
  useLink: () => import("../../app/api/account-link/use/route.ts"),
  me: () => import("../../app/api/me/route.ts"),
  totp: () => import("../../app/api/profile/totp/route.ts"),
  totpConfirm: () => import("../../app/api/profile/totp/confirm/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
  release: () => import("../../app/api/drafts/[id]/release/route.ts"),
};

let world: RouteWorld;
let db: DashboardDb;
let dda: string;
let admin: UserRow;
let admin2: UserRow;
let preparer: UserRow;

beforeAll(async () => {
  world = await openRouteWorld("credential-links", { customer: "Credential Links Ltd" });
  ({ db } = world);
  dda = await world.customer.account("DDA", 50_000);
  admin = await testUser(db, "admin", "admin@links.example", "Admin One");
  admin2 = await testUser(db, "admin", "admin2@links.example", "Admin Two");
  preparer = await testUser(db, "preparer", "prep@links.example", "Prep");
}, 180_000);

afterAll(async () => {
  await world?.close();
});

/** The token of the newest link e-mailed to this person, read from their own mail. */
async function linkIn(email: string): Promise<string> {
  const mail = await mailFor(db, email);
  const token = mail.map((m) => /\/account-link#([A-Za-z0-9_-]+)/.exec(m.text)?.[1]).find(Boolean);
  if (!token) throw new Error(`no link was e-mailed to ${email}`);
  return token;
}

const useLink = (body: Record<string, string>) =>
  invoke(mod.useLink, "POST", "/api/account-link/use", { body });

describe("no credential passes through an administrator", () => {
  it("the rogue administrator's path: demote, reset, re-promote holds no password, ends every session, and the second administrator sees the reset", async () => {
    const victim = await testUser(db, "approver", "victim@links.example", "Victim");
    const victimSession = await cookieFor(victim);
    expect((await invoke(mod.me, "GET", "/api/me", { cookie: victimSession })).status).toBe(200);

    // Demoting applies at once; a viewer's reset needs no second administrator.
    const demoted = await invoke(mod.user, "PATCH", "/x", {
      as: admin,
      params: { id: victim.id },
      body: { role: "viewer" },
    });
    expect(demoted.status).toBe(200);
    const reset = await invoke(mod.reset, "POST", "/x", { as: admin, params: { id: victim.id } });
    expect(reset.status).toBe(200);
    // The administrator receives nothing that signs in: no password, no link.
    expect(reset.json.temporaryPassword).toBeUndefined();
    const token = await linkIn(victim.email);
    expect(reset.text).not.toContain(token);
    expect(JSON.stringify(await mailFor(db, admin.email))).not.toContain(token);
    // The old password no longer works, and the victim's session is over.
    expect((await checkSignIn(db, { email: victim.email, password: TEST_PASSWORD })).ok).toBe(false);
    expect((await invoke(mod.me, "GET", "/api/me", { cookie: victimSession })).status).toBe(401);

    // Asking to promote them back: the second administrator sees the reset beside the role change.
    const promote = await invoke(mod.user, "PATCH", "/x", {
      as: admin,
      params: { id: victim.id },
      body: { role: "approver" },
    });
    expect(promote.status).toBe(202);
    const listed = await invoke(mod.changes, "GET", "/api/admin/changes", { as: admin2 });
    const change = listed.json.changes.find((c: { target: string }) => c.target === victim.id);
    expect(change.kind).toBe("user.role");
    const history = change.credentialHistory as { action: string; by: string }[];
    expect(history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "user.password_reset", by: admin.email }),
        expect.objectContaining({ action: "credential_link.issue", by: admin.email }),
      ]),
    );
    // Nothing secret in what the administrators read.
    expect(JSON.stringify(listed.json)).not.toContain(token);
  });

  it("a re-enabling shows the second administrator the last 30 days of second-factor and credential events, newest first, and nothing older", async () => {
    const u = await testUser(db, "approver", "history@links.example", "History");
    // Events of the past, as the log recorded them then: one just inside the window, one outside.
    const past = (days: number, action: string) =>
      db.query(
        `INSERT INTO audit_log (at, actor_id, actor_email, action, target, result)
         VALUES (now() - make_interval(days => $1), $2, $3, $4, $5, 'ok')`,
        [days, admin.id, admin.email, action, u.email],
      );
    await past(31, "user.password_reset");
    await past(29, "user.unlock");
    // The person turns on a second factor through their profile.
    const cookie = await cookieFor(u);
    const start = await invoke(mod.totp, "POST", "/api/profile/totp", {
      cookie,
      body: { currentPassword: TEST_PASSWORD },
    });
    expect(start.status).toBe(200);
    const on = await invoke(mod.totpConfirm, "POST", "/api/profile/totp/confirm", {
      cookie,
      body: { code: await generate({ secret: start.json.secret as string }) },
    });
    expect(on.json).toEqual({ enabled: true, pending: false });

    // Disabling applies at once; enabling an approver again waits for a second administrator.
    const off = await invoke(mod.user, "PATCH", "/x", {
      as: admin,
      params: { id: u.id },
      body: { disabled: true },
    });
    expect(off.status).toBe(200);
    const asked = await invoke(mod.user, "PATCH", "/x", {
      as: admin,
      params: { id: u.id },
      body: { disabled: false },
    });
    expect(asked.status).toBe(202);
    const listed = await invoke(mod.changes, "GET", "/api/admin/changes", { as: admin2 });
    const change = listed.json.changes.find(
      (c: { target: string; kind: string }) => c.target === u.id && c.kind === "user.enable",
    );
    expect(change).toBeDefined();
    const history = change.credentialHistory as { at: string; action: string; by: string | null }[];
    expect(history.map((e) => [e.action, e.by])).toEqual([
      ["totp.enable", u.email],
      ["totp.enrol_start", u.email],
      ["user.unlock", admin.email],
    ]);
    const times = history.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // A role change of the same account shows the same history.
    const role = await invoke(mod.user, "PATCH", "/x", {
      as: admin,
      params: { id: u.id },
      body: { role: "admin" },
    });
    expect(role.status).toBe(202);
    const again = await invoke(mod.changes, "GET", "/api/admin/changes", { as: admin2 });
    const roleChange = again.json.changes.find(
      (c: { target: string; kind: string }) => c.target === u.id && c.kind === "user.role",
    );
    expect((roleChange.credentialHistory as { action: string }[]).map((e) => e.action)).toEqual(
      history.map((e) => e.action),
    );
  });

  it("an invitation: the administrator sets no password; the person chooses theirs through a link that works once", async () => {
    const created = await invoke(mod.users, "POST", "/api/admin/users", {
      as: admin,
      body: {
        email: "newcomer@links.example",
        name: "New Comer",
        role: "viewer",
        password: "chosen by the admin 1",
      },
    });
    expect(created.status).toBe(201);
    expect(created.json.temporaryPassword).toBeUndefined();
    expect(Date.parse(created.json.invitationExpiresAt)).toBeGreaterThan(Date.now());
    // A password the administrator typed is no password of the account.
    expect(
      (await checkSignIn(db, { email: "newcomer@links.example", password: "chosen by the admin 1" })).ok,
    ).toBe(false);

    const token = await linkIn("newcomer@links.example");
    const info = await invoke(mod.linkInfo, "POST", "/api/account-link", { body: { token } });
    expect(info.json).toMatchObject({ purpose: "invite", email: "newcomer@links.example" });
    const mismatch = await useLink({
      token,
      newPassword: "my own password 1",
      confirmPassword: "my own password 2",
    });
    expect(mismatch.status).toBe(400);
    const used = await useLink({
      token,
      newPassword: "my own password 1",
      confirmPassword: "my own password 1",
    });
    expect(used.status).toBe(200);
    expect(
      (await checkSignIn(db, { email: "newcomer@links.example", password: "my own password 1" })).ok,
    ).toBe(true);
    // Once only.
    const again = await useLink({
      token,
      newPassword: "someone else's 1",
      confirmPassword: "someone else's 1",
    });
    expect(again.status).toBe(400);
    expect(again.json.error.fields[0].field).toBe("token");
    expect(
      (await checkSignIn(db, { email: "newcomer@links.example", password: "someone else's 1" })).ok,
    ).toBe(false);
    // The person is told their password was set.
    expect((await mailFor(db, "newcomer@links.example")).map((m) => m.kind)).toContain("credential.changed");
  });

  it("a link stops working when its time is up, and when a newer one replaces it", async () => {
    const u = await testUser(db, "viewer", "late@links.example", "Late");
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    await issueCredentialLink(db, { user: u, purpose: "reset", requestedBy: admin, now: threeDaysAgo });
    const stale = await linkIn(u.email);
    const expired = await useLink({
      token: stale,
      newPassword: "too late password",
      confirmPassword: "too late password",
    });
    expect(expired.status).toBe(400);

    const first = await invoke(mod.reset, "POST", "/x", { as: admin, params: { id: u.id } });
    expect(first.status).toBe(200);
    const older = await linkIn(u.email);
    await invoke(mod.reset, "POST", "/x", { as: admin, params: { id: u.id } });
    const newer = await linkIn(u.email);
    expect(newer).not.toBe(older);
    expect(
      (await useLink({ token: older, newPassword: "older link pass", confirmPassword: "older link pass" }))
        .status,
    ).toBe(400);
    expect(
      (await useLink({ token: newer, newPassword: "newer link pass", confirmPassword: "newer link pass" }))
        .status,
    ).toBe(200);
  });

  it("a privileged user's reset waits for a second administrator, whose approval e-mails the link to the person alone", async () => {
    const u = await testUser(db, "preparer", "priv@links.example", "Priv");
    const asked = await invoke(mod.reset, "POST", "/x", { as: admin, params: { id: u.id } });
    expect(asked.status).toBe(202);
    expect((await checkSignIn(db, { email: u.email, password: TEST_PASSWORD })).ok).toBe(true);
    const approved = await invoke(mod.approve, "POST", "/x", {
      as: admin2,
      params: { id: asked.json.pending[0].id },
    });
    expect(approved.status).toBe(200);
    expect(approved.json.temporaryPassword).toBeUndefined();
    const token = await linkIn(u.email);
    expect(approved.text).not.toContain(token);
    expect((await checkSignIn(db, { email: u.email, password: TEST_PASSWORD })).ok).toBe(false);
    expect(
      (await useLink({ token, newPassword: "priv's own password", confirmPassword: "priv's own password" }))
        .status,
    ).toBe(200);
  });
});

describe("a user invited or reset in the last 24 hours casts no vote that moves money", () => {
  it("refuses the release with why and until when, and allows it a day later", async () => {
    const approver = await testUser(db, "approver", "fresh@links.example", "Fresh");
    await db.query("UPDATE users SET credentials_changed_at = now() - interval '23 hours' WHERE id = $1", [
      approver.id,
    ]);
    const draft = await invoke(mod.wires, "POST", "/api/wires", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: dda,
        amount: "25.00",
        beneficiary_name: "Embargo Test Payee",
        beneficiary_account_number: "770001",
        beneficiary_address1: "1 Main Street",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(draft.status).toBe(200);
    const id = draft.json.draft.id as string;
    const me = await invoke(mod.me, "GET", "/api/me", { as: approver });
    const until = Date.parse(me.json.votesEmbargoedUntil);
    expect(until).toBeGreaterThan(Date.now());
    expect(until).toBeLessThanOrEqual(Date.now() + 3_600_000);

    const refused = await invoke(mod.release, "POST", "/x", {
      as: approver,
      params: { id },
      body: { version: 1 },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("credentials_recent");
    expect(refused.json.error.message).toMatch(/less than 24 hours ago: until .+ you cannot approve/);

    await db.query("UPDATE users SET credentials_changed_at = now() - interval '25 hours' WHERE id = $1", [
      approver.id,
    ]);
    const released = await invoke(mod.release, "POST", "/x", {
      as: approver,
      params: { id },
      body: { version: 1 },
    });
    expect(released.status).toBe(200);
    expect(released.json.draft.status).not.toBe("pending");
  });

  it("an invited approver's embargo starts at the invitation", async () => {
    const created = await invoke(mod.users, "POST", "/api/admin/users", {
      as: admin,
      body: { email: "invited-approver@links.example", name: "Invited Approver", role: "approver" },
    });
    expect(created.status).toBe(202);
    const row = await findUserById(db, created.json.user.id);
    expect(row?.credentials_changed_at).not.toBeNull();
  });
});

describe("a lost second factor", () => {
  it("is removed through a link the person opens with their password, with a second administrator for an approver", async () => {
    const u = await testUser(db, "approver", "lostphone@links.example", "Lost Phone");
    await enableTotp(db, u.id, newTotpSecret(), 1);
    const asked = await invoke(mod.removeDevice, "POST", "/x", { as: admin, params: { id: u.id } });
    expect(asked.status).toBe(202);
    expect(asked.json.pending[0].kind).toBe("user.totp_removal");
    expect(await mailFor(db, u.email)).toEqual([]);
    const own = await invoke(mod.approve, "POST", "/x", {
      as: admin,
      params: { id: asked.json.pending[0].id },
    });
    expect(own.status).toBe(403);
    const approved = await invoke(mod.approve, "POST", "/x", {
      as: admin2,
      params: { id: asked.json.pending[0].id },
    });
    expect(approved.status).toBe(200);
    const token = await linkIn(u.email);
    expect((await findUserById(db, u.id))?.totp_secret).not.toBeNull();
    const wrong = await useLink({ token, currentPassword: "not the password" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.fields[0].field).toBe("currentPassword");
    const ok = await useLink({ token, currentPassword: TEST_PASSWORD });
    expect(ok.status).toBe(200);
    expect((await findUserById(db, u.id))?.totp_secret).toBeNull();
    expect((await checkSignIn(db, { email: u.email, password: TEST_PASSWORD })).ok).toBe(true);
  });
});
