// An administrator gets a locked-out user back in: Unlock lifts the lockout at once; Reset
// password gives a temporary password that works once and must be replaced before anything else;
// both are audited. Route handlers run on a real dashboard database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { readAudit } from "../../lib/auth/audit.ts";
import { checkSignIn, createUser, findUserById, type UserRow } from "../../lib/auth/users.ts";
import { type DashboardDb, openDashboardDb, setDashboardDb } from "../../lib/db/client.ts";

const SECRET = "recovery-test-secret-0123456789abcdef";
process.env.NEXTAUTH_SECRET = SECRET;
const PASSWORD = "correct horse battery staple";

let db: DashboardDb;
let dir: string;
let admin: UserRow;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-recovery-"));
  db = await openDashboardDb({ dataDir: path.join(dir, "db") });
  setDashboardDb(db);
  admin = await createUser(db, {
    email: "admin@recovery.example",
    name: "Admin",
    role: "admin",
    password: PASSWORD,
  });
}, 120_000);

afterAll(async () => {
  setDashboardDb(undefined);
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cookieFor(u: UserRow): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return `next-auth.session-token=${await encode({
    secret: SECRET,
    token: { sub: u.id, email: u.email, name: u.name, signedInAt: now, lastActivity: now },
  })}`;
}

function req(cookie: string, method: string, url: string, body?: unknown) {
  return new NextRequest(new URL(url, "http://127.0.0.1:3999"), {
    method,
    headers: { cookie, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function lockOut(email: string) {
  for (let i = 0; i < 10; i++) await checkSignIn(db, { email, password: "wrong password" });
  expect(await checkSignIn(db, { email, password: PASSWORD })).toMatchObject({ ok: false, reason: "locked" });
}

describe("getting a locked-out user back in", () => {
  it("unlocks an account at once, audited", async () => {
    const user = await createUser(db, {
      email: "locked@recovery.example",
      name: "L",
      role: "viewer",
      password: PASSWORD,
    });
    await lockOut(user.email);
    const unlock = await import("../../app/api/admin/users/[id]/unlock/route.ts");
    const res = await unlock.POST(req(await cookieFor(admin), "POST", `/api/admin/users/${user.id}/unlock`), {
      params: Promise.resolve({ id: user.id }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { locked: boolean } }).user.locked).toBe(false);
    expect((await checkSignIn(db, { email: user.email, password: PASSWORD })).ok).toBe(true);
    const audit = await readAudit(db, 20);
    expect(audit.find((e) => e.action === "user.unlock" && e.target === user.email)).toMatchObject({
      actorEmail: admin.email,
      result: "ok",
    });
  });

  it("refuses Unlock to a role that does not manage users", async () => {
    const viewer = await createUser(db, {
      email: "viewer@recovery.example",
      name: "V",
      role: "viewer",
      password: PASSWORD,
    });
    const unlock = await import("../../app/api/admin/users/[id]/unlock/route.ts");
    const res = await unlock.POST(
      req(await cookieFor(viewer), "POST", `/api/admin/users/${admin.id}/unlock`),
      {
        params: Promise.resolve({ id: admin.id }),
      },
    );
    expect(res.status).toBe(403);
  });

  it("resets a password to a temporary one that must be replaced, then takes the user's own", async () => {
    const user = await createUser(db, {
      email: "reset@recovery.example",
      name: "R",
      role: "preparer",
      password: PASSWORD,
    });
    await lockOut(user.email);
    const reset = await import("../../app/api/admin/users/[id]/reset-password/route.ts");
    const res = await reset.POST(
      req(await cookieFor(admin), "POST", `/api/admin/users/${user.id}/reset-password`),
      { params: Promise.resolve({ id: user.id }) },
    );
    expect(res.status).toBe(200);
    const { temporaryPassword, user: shown } = (await res.json()) as {
      temporaryPassword: string;
      user: { locked: boolean; resetPending: boolean };
    };
    expect(temporaryPassword.length).toBeGreaterThanOrEqual(12);
    expect(shown).toMatchObject({ locked: false, resetPending: true });
    // The old password is gone, the temporary one signs in (and the lockout is lifted).
    expect((await checkSignIn(db, { email: user.email, password: PASSWORD })).ok).toBe(false);
    expect((await checkSignIn(db, { email: user.email, password: temporaryPassword })).ok).toBe(true);
    expect((await findUserById(db, user.id))?.password_must_change).toBe(true);

    const change = await import("../../app/api/profile/password/route.ts");
    const cookie = await cookieFor(user);
    const wrong = await change.POST(
      req(cookie, "POST", "/api/profile/password", {
        currentPassword: "not it",
        newPassword: "a new long password 1",
        confirmPassword: "a new long password 1",
      }),
      { params: Promise.resolve({}) },
    );
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { fields: { field: string }[] } }).error.fields[0].field).toBe(
      "currentPassword",
    );
    const short = await change.POST(
      req(cookie, "POST", "/api/profile/password", {
        currentPassword: temporaryPassword,
        newPassword: "short",
        confirmPassword: "short",
      }),
      { params: Promise.resolve({}) },
    );
    expect(short.status).toBe(400);
    const ok = await change.POST(
      req(cookie, "POST", "/api/profile/password", {
        currentPassword: temporaryPassword,
        newPassword: "a new long password 1",
        confirmPassword: "a new long password 1",
      }),
      { params: Promise.resolve({}) },
    );
    expect(ok.status).toBe(200);
    expect((await findUserById(db, user.id))?.password_must_change).toBe(false);
    expect((await checkSignIn(db, { email: user.email, password: "a new long password 1" })).ok).toBe(true);
    expect((await checkSignIn(db, { email: user.email, password: temporaryPassword })).ok).toBe(false);

    const audit = await readAudit(db, 50);
    expect(audit.some((e) => e.action === "user.password_reset" && e.target === user.email)).toBe(true);
    expect(audit.some((e) => e.action === "password.change" && e.result === "ok")).toBe(true);
    // Nothing secret in the audit log.
    expect(JSON.stringify(audit)).not.toContain(temporaryPassword);
  });
});
