// An administrator gets a locked-out user back in: Unlock lifts the lockout at once; Reset
// password e-mails the person a one-time link to choose a new one (the administrator never holds
// it); both are audited. Route handlers run on a real dashboard database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { readAudit } from "../../lib/audit/log.ts";
import { openSessionRecord } from "../../lib/auth/session-store.ts";
import { checkSignIn } from "../../lib/auth/sign-in.ts";
import { findUserById, type UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { mailFor } from "../../lib/inbox/digest.ts";
import {
  cookieFor,
  invoke,
  openTestDashboardDb,
  TEST_PASSWORD as PASSWORD,
  type TestDashboardDb,
  testUser,
} from "../helpers/routes.ts";

process.env.NEXTAUTH_SECRET = "recovery-test-secret-0123456789abcdef";

const route = {
  unlock: () => import("../../app/api/admin/users/[id]/unlock/route.ts"),
  reset: () => import("../../app/api/admin/users/[id]/reset-password/route.ts"),
  changePassword: () => import("../../app/api/profile/password/route.ts"),
  me: () => import("../../app/api/me/route.ts"),
  approve: () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
  users: () => import("../../app/api/admin/users/route.ts"),
  useLink: () => import("../../app/api/account-link/use/route.ts"),
  user: () => import("../../app/api/admin/users/[id]/route.ts"),
};

let dashboard: TestDashboardDb;
let db: DashboardDb;
let admin: UserRow;
let admin2: UserRow;

beforeAll(async () => {
  dashboard = await openTestDashboardDb("dashboard-recovery");
  db = dashboard.db;
  admin = await testUser(db, "admin", "admin@recovery.example", "Admin");
  admin2 = await testUser(db, "admin", "admin2@recovery.example", "Second admin");
}, 120_000);

afterAll(() => dashboard?.close());

async function lockOut(email: string) {
  for (let i = 0; i < 10; i++) await checkSignIn(db, { email, password: "wrong password" });
  expect(await checkSignIn(db, { email, password: PASSWORD })).toMatchObject({ ok: false, reason: "locked" });
}

describe("getting a locked-out user back in", () => {
  it("unlocks an account at once, audited", async () => {
    const user = await testUser(db, "viewer", "locked@recovery.example", "L");
    await lockOut(user.email);
    const res = await invoke(route.unlock, "POST", `/api/admin/users/${user.id}/unlock`, {
      as: admin,
      params: { id: user.id },
    });
    expect(res.status).toBe(200);
    expect((res.json as { user: { locked: boolean } }).user.locked).toBe(false);
    expect((await checkSignIn(db, { email: user.email, password: PASSWORD })).ok).toBe(true);
    const audit = await readAudit(db, 20);
    expect(audit.find((e) => e.action === "user.unlock" && e.target === user.email)).toMatchObject({
      actorEmail: admin.email,
      result: "ok",
    });
  });

  it("refuses Unlock to a role that does not manage users", async () => {
    const viewer = await testUser(db, "viewer", "viewer@recovery.example", "V");
    const res = await invoke(route.unlock, "POST", `/api/admin/users/${admin.id}/unlock`, {
      as: viewer,
      params: { id: admin.id },
    });
    expect(res.status).toBe(403);
  });

  it("resets a password through a one-time link to the person, who then chooses their own", async () => {
    const user = await testUser(db, "preparer", "reset@recovery.example", "R");
    await lockOut(user.email);
    // A preparer moves money: the reset waits for a second administrator, and no one gets a password.
    const res = await invoke(route.reset, "POST", `/api/admin/users/${user.id}/reset-password`, {
      as: admin,
      params: { id: user.id },
    });
    expect(res.status).toBe(202);
    expect(res.json.temporaryPassword).toBeUndefined();
    const changeId = res.json.pending[0].id as string;
    const approved = await invoke(route.approve, "POST", `/api/admin/changes/${changeId}/approve`, {
      as: admin2,
      params: { id: changeId },
    });
    expect(approved.status).toBe(200);
    expect(approved.json.temporaryPassword).toBeUndefined();
    const listed = await invoke(route.users, "GET", "/api/admin/users", { as: admin });
    const shown = listed.json.users.find((u: { id: string }) => u.id === user.id);
    expect(shown).toMatchObject({ locked: false, resetPending: true });
    // The old password is gone; the link in the person's own mail sets the new one.
    expect((await checkSignIn(db, { email: user.email, password: PASSWORD })).ok).toBe(false);
    const mail = await mailFor(db, user.email);
    const token = /\/account-link#([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "")?.[1] ?? "";
    const used = await invoke(route.useLink, "POST", "/api/account-link/use", {
      body: { token, newPassword: "a new long password 1", confirmPassword: "a new long password 1" },
    });
    expect(used.status).toBe(200);
    expect((await findUserById(db, user.id))?.password_must_change).toBe(false);
    expect((await checkSignIn(db, { email: user.email, password: "a new long password 1" })).ok).toBe(true);

    const audit = await readAudit(db, 50);
    expect(
      audit.some(
        (e) => e.action === "user.password_reset" && e.target === user.email && e.actorEmail === admin2.email,
      ),
    ).toBe(true);
    expect(audit.some((e) => e.action === "credential_link.use" && e.target === user.email)).toBe(true);
    // Nothing secret in the audit log.
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("a changed password ends the user's other sessions; a reset ends them all", async () => {
    const user = await testUser(db, "viewer", "sessions@recovery.example", "S");
    const now = Math.floor(Date.now() / 1000);
    const laptop = await cookieFor(user, { signedInAt: now - 120, lastActivity: now });
    const phone = await cookieFor(user, { signedInAt: now - 60, lastActivity: now });
    const me = (cookie: string) => invoke(route.me, "GET", "/api/me", { cookie });
    expect([(await me(laptop)).status, (await me(phone)).status]).toEqual([200, 200]);

    // Changed on the laptop: the phone's session is over, the laptop's goes on.
    const changed = await invoke(route.changePassword, "POST", "/api/profile/password", {
      cookie: laptop,
      body: {
        currentPassword: PASSWORD,
        newPassword: "the laptop's new password",
        confirmPassword: "the laptop's new password",
      },
    });
    expect(changed.status).toBe(200);
    expect((await me(laptop)).status).toBe(200);
    const ended = await me(phone);
    expect(ended.status).toBe(401);
    expect(ended.json.error.message).toMatch(/password was changed/);
    // A sign-in after the change is a session like any other.
    const later = await cookieFor(user, { signedInAt: now + 5, lastActivity: now + 5 });
    expect((await me(later)).status).toBe(200);

    // An administrator's reset ends every session signed in before it, the laptop's too.
    const reset = await invoke(route.reset, "POST", `/api/admin/users/${user.id}/reset-password`, {
      as: admin,
      params: { id: user.id },
    });
    expect(reset.status).toBe(200);
    expect([(await me(laptop)).status, (await me(phone)).status]).toEqual([401, 401]);
    // Other users' sessions are theirs.
    expect((await me(await cookieFor(admin, { signedInAt: now - 120, lastActivity: now }))).status).toBe(200);
  });

  it("a changed password ends a session signed in within the same second as the change", async () => {
    const user = await testUser(db, "viewer", "same-second@recovery.example", "S");
    const now = Math.floor(Date.now() / 1000);
    const laptop = await cookieFor(user, { signedInAt: now - 60, lastActivity: now });
    // The phone's session is recorded before the change; its cookie will say it signed in within
    // the change's second.
    const phoneSid = await openSessionRecord(db, user.id, new Date((now + 3600) * 1000));
    const changed = await invoke(route.changePassword, "POST", "/api/profile/password", {
      cookie: laptop,
      body: {
        currentPassword: PASSWORD,
        newPassword: "the same second's password",
        confirmPassword: "the same second's password",
      },
    });
    expect(changed.status).toBe(200);
    const [{ at }] = await db.query<{ at: Date }>("SELECT sessions_from AS at FROM users WHERE id = $1", [
      user.id,
    ]);
    const second = Math.floor(new Date(at).getTime() / 1000);
    const phone = await cookieFor(user, { signedInAt: second, lastActivity: second, sid: phoneSid });
    const me = (cookie: string) => invoke(route.me, "GET", "/api/me", { cookie });
    expect((await me(laptop)).status).toBe(200);
    expect((await me(phone)).status).toBe(401);
  });

  it("disabling ends every session: re-enabling the account does not bring them back", async () => {
    const user = await testUser(db, "viewer", "disabled-sessions@recovery.example", "D");
    const now = Math.floor(Date.now() / 1000);
    const cookie = await cookieFor(user, { signedInAt: now - 60, lastActivity: now });
    const me = () => invoke(route.me, "GET", "/api/me", { cookie });
    expect((await me()).status).toBe(200);
    const patch = (as: UserRow, disabled: boolean) =>
      invoke(route.user, "PATCH", `/api/admin/users/${user.id}`, {
        as,
        params: { id: user.id },
        body: { disabled },
      });
    expect((await patch(admin, true)).status).toBe(200);
    expect((await me()).status).toBe(401);
    const asked = await patch(admin, false);
    expect(asked.status).toBe(202);
    const approved = await invoke(route.approve, "POST", "/x", {
      as: admin2,
      params: { id: asked.json.pending[0].id },
    });
    expect(approved.status).toBe(200);
    expect((await findUserById(db, user.id))?.disabled).toBe(false);
    expect((await me()).status).toBe(401);
  });
});
