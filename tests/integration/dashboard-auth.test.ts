// Sign-in rules on a real dashboard database: lockout after 10 failures (even the right password
// is refused while locked, with the minutes left), the per-address rate limit, TOTP enrolment
// through the profile routes and then required at sign-in (each code once), and the session's
// idle and absolute limits in next-auth's callbacks.
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { authOptions } from "../../lib/auth/options.ts";
import { verifyPassword } from "../../lib/auth/passwords.ts";
import { enableTotp } from "../../lib/auth/second-factor.ts";
import { openSessionRecord, revokeSessionRecord } from "../../lib/auth/session-store.ts";
import { checkSignIn } from "../../lib/auth/sign-in.ts";
import { allowSignInAttempt } from "../../lib/auth/throttle.ts";
import { createUser, findUserById } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { mailFor } from "../../lib/inbox/digest.ts";
import {
  cookieFor,
  invoke,
  openTestDashboardDb,
  TEST_PASSWORD as PASSWORD,
  type TestDashboardDb,
} from "../helpers/routes.ts";

const TOTP_ROUTE = () => import("../../app/api/profile/totp/route.ts");
const TOTP_CONFIRM_ROUTE = () => import("../../app/api/profile/totp/confirm/route.ts");
const PASSWORD_ROUTE = () => import("../../app/api/profile/password/route.ts");
/** The fields a refusal names. */
const fields = (r: { json?: { error?: { fields?: { field: string }[] } } }) =>
  (r.json?.error?.fields ?? []).map((f) => f.field);

process.env.NEXTAUTH_SECRET = "auth-test-secret-0123456789abcdef";

let dashboard: TestDashboardDb;
let db: DashboardDb;

beforeAll(async () => {
  dashboard = await openTestDashboardDb("dashboard-auth");
  db = dashboard.db;
}, 120_000);

afterAll(() => dashboard?.close());

describe("lockout", () => {
  it("locks an account for 30 minutes after 10 failed attempts, even against the right password", async () => {
    await createUser(db, { email: "lock@auth.example", name: "Lock", role: "viewer", password: PASSWORD });
    const outcomes = [];
    for (let i = 0; i < 10; i++)
      outcomes.push(await checkSignIn(db, { email: "lock@auth.example", password: "nope" }));
    expect(outcomes.slice(0, 9).every((o) => !o.ok && o.reason === "invalid")).toBe(true);
    expect(outcomes[9]).toMatchObject({ ok: false, reason: "locked", minutes: 30 });
    expect(await checkSignIn(db, { email: "LOCK@auth.example", password: PASSWORD })).toMatchObject({
      ok: false,
      reason: "locked",
    });
    // Thirty minutes later the right password works again.
    const later = Date.now() + 30 * 60_000 + 1000;
    expect((await checkSignIn(db, { email: "lock@auth.example", password: PASSWORD }, later)).ok).toBe(true);
  });

  it("answers an unknown e-mail like a wrong password", async () => {
    expect(await checkSignIn(db, { email: "nobody@auth.example", password: PASSWORD })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("locks an unknown address after 10 attempts exactly as it locks a known one", async () => {
    await createUser(db, { email: "known@auth.example", name: "Known", role: "viewer", password: PASSWORD });
    const now = Date.now();
    const attempts = async (email: string) => {
      const out = [];
      for (let i = 0; i < 12; i++) {
        const o = await checkSignIn(db, { email, password: "wrong password" }, now + i);
        out.push(o.ok ? "ok" : o.reason === "locked" ? `locked:${o.minutes}` : o.reason);
      }
      return out;
    };
    const known = await attempts("known@auth.example");
    const unknown = await attempts("Nobody-Else@auth.example");
    expect(known).toEqual([...Array(9).fill("invalid"), "locked:30", "locked:30", "locked:30"]);
    expect(unknown).toEqual(known);
    // Both unlock after the same thirty minutes.
    const later = now + 30 * 60_000 + 1000;
    expect(await checkSignIn(db, { email: "nobody-else@auth.example", password: "x" }, later)).toMatchObject({
      reason: "invalid",
    });
  });

  it("tells the browser the same words for an unknown and for a known address", async () => {
    const options = authOptions();
    const provider = options.providers.find((p) => p.id === "credentials") as unknown as {
      options: { authorize: (c: Record<string, string>, r: unknown) => Promise<unknown> };
    };
    const message = async (email: string, ip: string) => {
      const out = [];
      for (let i = 0; i < 11; i++) {
        const e = await provider.options
          .authorize({ email, password: "wrong password" }, { headers: { "x-forwarded-for": ip } })
          .catch((err: Error) => err.message);
        out.push(e);
      }
      return out;
    };
    await createUser(db, { email: "words@auth.example", name: "Words", role: "viewer", password: PASSWORD });
    const known = await message("words@auth.example", "198.51.100.1");
    const unknown = await message("no-words@auth.example", "198.51.100.2");
    expect(unknown).toEqual(known);
    expect(known.at(-1)).toMatch(/lock/i);
  });
});

describe("rate limit", () => {
  it("refuses the 31st sign-in attempt from one address within a minute", async () => {
    const now = Date.now();
    const results = [];
    for (let i = 0; i < 31; i++) results.push(await allowSignInAttempt(db, "203.0.113.7", now));
    expect(results.slice(0, 30).every(Boolean)).toBe(true);
    expect(results[30]).toBe(false);
    expect(await allowSignInAttempt(db, "203.0.113.8", now)).toBe(true);
    expect(await allowSignInAttempt(db, "203.0.113.7", now + 60_000)).toBe(true);
  });
});

describe("TOTP", () => {
  it("is enrolled from the profile and then required at sign-in, each code once", async () => {
    const user = await createUser(db, {
      email: "totp@auth.example",
      name: "Totp",
      role: "approver",
      password: PASSWORD,
    });
    const cookie = await cookieFor(user);

    // A session alone attaches no device: the password proves it is the person.
    const bare = await invoke(TOTP_ROUTE, "POST", "/api/profile/totp", { cookie, body: {} });
    expect(bare.status).toBe(400);
    expect(fields(bare)).toEqual(["currentPassword"]);
    const wrongPassword = await invoke(TOTP_ROUTE, "POST", "/api/profile/totp", {
      cookie,
      body: { currentPassword: "not it" },
    });
    expect(wrongPassword.status).toBe(400);
    expect((await findUserById(db, user.id))?.totp_pending_secret).toBeNull();
    const start = await invoke(TOTP_ROUTE, "POST", "/api/profile/totp", {
      cookie,
      body: { currentPassword: PASSWORD },
    });
    expect(start.status).toBe(200);
    const { secret, otpauthUrl } = start.json as { secret: string; otpauthUrl: string };
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    const wrong = await invoke(TOTP_CONFIRM_ROUTE, "POST", "/api/profile/totp/confirm", {
      cookie,
      body: { code: "000000" },
    });
    expect(wrong.status).toBe(400);
    // Until confirmed, sign-in needs no code.
    expect((await checkSignIn(db, { email: user.email, password: PASSWORD })).ok).toBe(true);

    const code = await generate({ secret });
    const ok = await invoke(TOTP_CONFIRM_ROUTE, "POST", "/api/profile/totp/confirm", {
      cookie,
      body: { code },
    });
    expect(ok.json).toEqual({ enabled: true, pending: false });
    // The person is told.
    expect((await mailFor(db, user.email)).map((m) => m.subject)).toContain(
      "Your two-step sign-in was turned on",
    );
    // The seed is stored sealed: the database alone does not give the second factor away.
    const stored = await db.query<{ totp_secret: string }>("SELECT totp_secret FROM users WHERE id = $1", [
      user.id,
    ]);
    expect(stored[0].totp_secret).toMatch(/^enc1:/);
    expect(stored[0].totp_secret).not.toContain(secret);

    expect(await checkSignIn(db, { email: user.email, password: PASSWORD })).toMatchObject({
      ok: false,
      reason: "totp_required",
    });
    // The code that confirmed enrolment cannot be used again.
    expect(await checkSignIn(db, { email: user.email, password: PASSWORD, totp: code })).toMatchObject({
      ok: false,
      reason: "totp_invalid",
    });
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect((await checkSignIn(db, { email: user.email, password: PASSWORD, totp: next })).ok).toBe(true);
  });
});

describe("a code used twice at once", () => {
  const SECRET = "KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU";

  it("signs in once when two sign-ins race with the same code, and turns off once when two requests race", async () => {
    const user = await createUser(db, {
      email: "race-totp@auth.example",
      name: "Race",
      role: "approver",
      password: PASSWORD,
    });
    await enableTotp(db, user.id, SECRET, 0);
    const code = await generate({ secret: SECRET, epoch: Math.floor(Date.now() / 1000) });
    const both = await Promise.all(
      [1, 2, 3].map(() => checkSignIn(db, { email: user.email, password: PASSWORD, totp: code })),
    );
    expect(both.filter((o) => o.ok)).toHaveLength(1);
    expect(both.filter((o) => !o.ok).map((o) => (o.ok ? "" : o.reason))).toEqual([
      "totp_invalid",
      "totp_invalid",
    ]);

    // Turning it off: a later code, sent twice at once from one session; one of them proves it.
    const cookie = await cookieFor(user);
    const later = await generate({ secret: SECRET, epoch: Math.floor(Date.now() / 1000) + 30 });
    const offs = await Promise.all(
      ["10.9.0.1", "10.9.0.2"].map((ip) =>
        invoke(TOTP_ROUTE, "DELETE", "/api/profile/totp", {
          cookie,
          body: { currentPassword: PASSWORD, code: later },
          headers: { "x-forwarded-for": ip },
        }),
      ),
    );
    const audit = await db.query<{ result: string }>(
      "SELECT result FROM audit_log WHERE actor_id = $1 AND action = 'totp.disable' ORDER BY id",
      [user.id],
    );
    // One request spent the code and turned it off; the other was refused, or found it already off.
    expect(audit.filter((a) => a.result === "ok")).toHaveLength(1);
    expect(offs.every((o) => o.status === 200 || o.status === 400)).toBe(true);
    expect((await findUserById(db, user.id))?.totp_secret).toBeNull();
  });
});

describe("moving the second factor to another device", () => {
  it("needs the password and a current code, never the session alone nor one of them", async () => {
    const user = await createUser(db, {
      email: "move-totp@auth.example",
      name: "Move",
      role: "approver",
      password: PASSWORD,
    });
    const oldSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    await enableTotp(db, user.id, oldSecret, 0);
    const cookie = await cookieFor(user);
    const call = (load: typeof TOTP_ROUTE | typeof TOTP_CONFIRM_ROUTE, url: string, body: unknown) =>
      invoke(load, "POST", url, { cookie, body });

    // A session alone: refused, naming the proof it needs.
    const bare = await call(TOTP_ROUTE, "/api/profile/totp", {});
    expect(bare.status).toBe(400);
    expect(fields(bare)).toEqual(["currentPassword"]);
    // Confirming a device of one's own choosing is refused too: nothing was started.
    const attacker = "KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU";
    const sneaked = await call(TOTP_CONFIRM_ROUTE, "/api/profile/totp/confirm", {
      code: await generate({ secret: attacker }),
    });
    expect(sneaked.status).toBe(400);

    // The password alone no longer moves it (a lost device goes through an administrator's link).
    const passwordAlone = await call(TOTP_ROUTE, "/api/profile/totp", { currentPassword: PASSWORD });
    expect(passwordAlone.status).toBe(400);
    expect(fields(passwordAlone)).toEqual(["currentCode"]);
    const current0 = await generate({ secret: oldSecret });
    const wrongPassword = await call(TOTP_ROUTE, "/api/profile/totp", {
      currentCode: current0,
      currentPassword: "not it",
    });
    expect(wrongPassword.status).toBe(400);
    expect(fields(wrongPassword)).toEqual(["currentPassword"]);
    const wrongCode = await call(TOTP_ROUTE, "/api/profile/totp", {
      currentCode: "000000",
      currentPassword: PASSWORD,
    });
    expect(wrongCode.status).toBe(400);
    expect(fields(wrongCode)).toEqual(["currentCode"]);
    expect((await findUserById(db, user.id))?.totp_secret).toBe(oldSecret);
    expect((await findUserById(db, user.id))?.totp_pending_secret).toBeNull();

    // Both prove it; the code is then used up, as at sign-in.
    const current = await generate({ secret: oldSecret });
    const started = await call(TOTP_ROUTE, "/api/profile/totp", {
      currentCode: current,
      currentPassword: PASSWORD,
    });
    expect(started.status).toBe(200);
    expect(await checkSignIn(db, { email: user.email, password: PASSWORD, totp: current })).toMatchObject({
      ok: false,
      reason: "totp_invalid",
    });
    const newSecret = (started.json as { secret: string }).secret;
    const done = await call(TOTP_CONFIRM_ROUTE, "/api/profile/totp/confirm", {
      code: await generate({ secret: newSecret }),
    });
    expect(done.json).toEqual({ enabled: true, pending: false });
    expect((await findUserById(db, user.id))?.totp_secret).toBe(newSecret);
    expect((await mailFor(db, user.email)).map((m) => m.subject)).toContain(
      "Your two-step sign-in was moved to a new device",
    );
    const audit = await db.query<{ action: string; result: string }>(
      "SELECT action, result FROM audit_log WHERE actor_id = $1 ORDER BY id",
      [user.id],
    );
    expect(audit.map((a) => `${a.action} ${a.result}`)).toEqual([
      "totp.replace_start refused: wrong password",
      "totp.replace_start refused: wrong code",
      "totp.replace_start ok",
      "totp.replace ok",
    ]);
  });
});

describe("turning off the second factor", () => {
  const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
  /** A code of the step after the last one used, so that each call has a fresh one. */
  const codeAt = (offsetSteps: number) =>
    generate({ secret: SECRET, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

  async function enrolled(email: string) {
    const user = await createUser(db, { email, name: "Off", role: "approver", password: PASSWORD });
    await enableTotp(db, user.id, SECRET, 0);
    const cookie = await cookieFor(user);
    const off = (body: unknown, ip: string) =>
      invoke(TOTP_ROUTE, "DELETE", "/api/profile/totp", { cookie, body, headers: { "x-forwarded-for": ip } });
    return { user, off };
  }

  it("needs the password and a current code, never a code alone, and audits each try", async () => {
    const { user, off } = await enrolled("off-totp@auth.example");
    const ip = "192.0.2.41";

    // A session and a code (read over a shoulder, or from a stolen phone) are not enough.
    const codeOnly = await off({ code: await codeAt(0) }, ip);
    expect(codeOnly.status).toBe(400);
    expect(fields(codeOnly)).toEqual(["currentPassword"]);
    const wrongPassword = await off({ currentPassword: "not it", code: await codeAt(0) }, ip);
    expect(wrongPassword.status).toBe(400);
    expect(fields(wrongPassword)).toEqual(["currentPassword"]);
    const wrongCode = await off({ currentPassword: PASSWORD, code: "000000" }, ip);
    expect(wrongCode.status).toBe(400);
    expect(fields(wrongCode)).toEqual(["code"]);
    expect((await findUserById(db, user.id))?.totp_secret).toBe(SECRET);
    // A refused try changes nothing, so it tells the person nothing.
    const offMail = "Your two-step sign-in was turned off";
    expect((await mailFor(db, user.email)).map((m) => m.subject)).not.toContain(offMail);

    const done = await off({ currentPassword: PASSWORD, code: await codeAt(0) }, ip);
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ enabled: false, pending: false });
    expect((await findUserById(db, user.id))?.totp_secret).toBeNull();
    // The person is told, once: a session and password held by someone else cannot quietly
    // take the second factor away.
    expect((await mailFor(db, user.email)).filter((m) => m.subject === offMail)).toHaveLength(1);
    expect((await checkSignIn(db, { email: user.email, password: PASSWORD })).ok).toBe(true);
    const audit = await db.query<{ action: string; result: string; ip: string }>(
      "SELECT action, result, ip FROM audit_log WHERE actor_id = $1 AND action = 'totp.disable' ORDER BY id",
      [user.id],
    );
    expect(audit.map((a) => `${a.result} from ${a.ip}`)).toEqual([
      `refused: wrong password from ${ip}`,
      `refused: wrong code from ${ip}`,
      `ok from ${ip}`,
    ]);
  });

  it("counts wrong tries toward the sign-in lockout, and refuses a locked account even with both right", async () => {
    const { user, off } = await enrolled("off-lock@auth.example");
    const statuses = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (await off({ currentPassword: `guess ${i}`, code: await codeAt(0) }, `192.0.2.${60 + i}`)).status,
      );
    expect(statuses).toEqual([...Array(9).fill(400), 423]);
    const locked = await off({ currentPassword: PASSWORD, code: await codeAt(0) }, "192.0.2.80");
    expect(locked.status).toBe(423);
    expect(locked.json.error?.code).toBe("locked");
    expect((await findUserById(db, user.id))?.totp_secret).toBe(SECRET);
    // The same lockout as at sign-in: the account is locked there too.
    expect(
      await checkSignIn(db, { email: user.email, password: PASSWORD, totp: await codeAt(1) }),
    ).toMatchObject({ ok: false, reason: "locked" });
    const audit = await db.query<{ result: string }>(
      "SELECT result FROM audit_log WHERE actor_id = $1 AND action = 'totp.disable' ORDER BY id DESC LIMIT 2",
      [user.id],
    );
    expect(audit.map((a) => a.result)).toEqual(["refused: locked", "refused: locked"]);
  });

  it("shares the sign-in limit per address: an address out of attempts is refused before any check", async () => {
    const { user, off } = await enrolled("off-rate@auth.example");
    const ip = "192.0.2.90";
    // This minute's and the next one's allowance used up, so the request meets a full window
    // whenever it lands.
    const now = Date.now();
    for (let i = 0; i < 30; i++) {
      await allowSignInAttempt(db, ip, now);
      await allowSignInAttempt(db, ip, now + 60_000);
    }
    const refused = await off({ currentPassword: PASSWORD, code: await codeAt(0) }, ip);
    expect(refused.status).toBe(429);
    expect(refused.json.error?.code).toBe("rate_limited");
    expect((await findUserById(db, user.id))?.totp_secret).toBe(SECRET);
    expect((await off({ currentPassword: PASSWORD, code: await codeAt(0) }, "192.0.2.91")).status).toBe(200);
  });
});

describe("proofs on one's own account share the sign-in's limits", () => {
  // A stolen session must not guess the password (or a code) here faster than at the sign-in page.
  const NEW_PASSWORD = "a new one 0123456789";
  async function changer(email: string) {
    const user = await createUser(db, { email, name: "Proof", role: "preparer", password: PASSWORD });
    const cookie = await cookieFor(user);
    const post = (load: typeof PASSWORD_ROUTE | typeof TOTP_ROUTE, url: string, body: unknown, ip: string) =>
      invoke(load, "POST", url, { cookie, body, headers: { "x-forwarded-for": ip } });
    return {
      user,
      change: (currentPassword: string, ip: string) =>
        post(
          PASSWORD_ROUTE,
          "/api/profile/password",
          { currentPassword, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
          ip,
        ),
      move: (currentPassword: string, ip: string) =>
        // Moving the device takes the password and a code: a wrong password is counted as at sign-in.
        post(TOTP_ROUTE, "/api/profile/totp", { currentPassword, currentCode: "123456" }, ip),
    };
  }
  const stillOld = async (userId: string) => {
    const row = await findUserById(db, userId);
    return !!row && (await verifyPassword(row.password_hash, PASSWORD));
  };

  it("locks the account after ten wrong current passwords, and then refuses the right one", async () => {
    const { user, change } = await changer("proof-lock@auth.example");
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await change(`guess ${i}`, `198.51.100.${10 + i}`)).status);
    expect(statuses).toEqual([...Array(9).fill(400), 423]);
    const locked = await change(PASSWORD, "198.51.100.40");
    expect(locked.status).toBe(423);
    expect(locked.json.error?.code).toBe("locked");
    expect(await stillOld(user.id)).toBe(true);
    // The same lock as at the sign-in page.
    expect(await checkSignIn(db, { email: user.email, password: PASSWORD })).toMatchObject({
      ok: false,
      reason: "locked",
    });
    const audit = await db.query<{ result: string }>(
      "SELECT result FROM audit_log WHERE actor_id = $1 AND action = 'password.change' ORDER BY id DESC LIMIT 3",
      [user.id],
    );
    expect(audit.map((a) => a.result)).toEqual([
      "refused: locked",
      "refused: locked",
      "refused: wrong current password",
    ]);
  });

  it("counts a wrong password when moving two-step sign-in toward the same lock", async () => {
    const { user, change, move } = await changer("proof-move@auth.example");
    await enableTotp(db, user.id, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", 0);
    for (let i = 0; i < 5; i++) expect((await move(`guess ${i}`, "198.51.100.50")).status).toBe(400);
    for (let i = 0; i < 4; i++) expect((await change(`guess ${i}`, "198.51.100.51")).status).toBe(400);
    expect((await move("guess 9", "198.51.100.52")).status).toBe(423);
    expect((await move(PASSWORD, "198.51.100.53")).status).toBe(423);
    expect((await findUserById(db, user.id))?.totp_pending_secret).toBeNull();
  });

  it("a right password clears the count, so earlier mistakes do not add up across days", async () => {
    const { user, change } = await changer("proof-reset@auth.example");
    for (let i = 0; i < 9; i++) expect((await change(`guess ${i}`, "198.51.100.60")).status).toBe(400);
    expect((await change(PASSWORD, "198.51.100.61")).status).toBe(200);
    expect((await findUserById(db, user.id))?.failed_attempts).toBe(0);
  });

  it("refuses an address out of sign-in attempts before checking anything", async () => {
    const { user, change } = await changer("proof-rate@auth.example");
    const ip = "198.51.100.70";
    const now = Date.now();
    for (let i = 0; i < 30; i++) {
      await allowSignInAttempt(db, ip, now);
      await allowSignInAttempt(db, ip, now + 60_000);
    }
    const refused = await change(PASSWORD, ip);
    expect(refused.status).toBe(429);
    expect(refused.json.error?.code).toBe("rate_limited");
    expect(await stillOld(user.id)).toBe(true);
    expect((await change(PASSWORD, "198.51.100.71")).status).toBe(200);
    expect(await stillOld(user.id)).toBe(false);
  });
});

describe("session callbacks", () => {
  const jwt = authOptions().callbacks?.jwt as (p: Record<string, unknown>) => Promise<Record<string, number>>;

  const recorded = () => openSessionRecord(db, "u1", new Date(Date.now() + 3600_000));

  it("refreshes the last activity on a session update", async () => {
    const now = Math.floor(Date.now() / 1000);
    const t = await jwt({
      token: { sub: "u1", sid: await recorded(), signedInAt: now - 600, lastActivity: now - 600 },
      trigger: "update",
    });
    expect(t.lastActivity).toBeGreaterThanOrEqual(now);
    expect(t.signedInAt).toBe(now - 600);
  });

  it("does not refresh activity on a plain session read", async () => {
    const now = Math.floor(Date.now() / 1000);
    const t = await jwt({
      token: { sub: "u1", sid: await recorded(), signedInAt: now - 600, lastActivity: now - 600 },
    });
    expect(t.lastActivity).toBe(now - 600);
  });

  it("neither reads nor refreshes a session signed out, or one never recorded", async () => {
    const now = Math.floor(Date.now() / 1000);
    const sid = await recorded();
    await revokeSessionRecord(db, sid);
    for (const token of [
      { sub: "u1", sid, signedInAt: now - 60, lastActivity: now - 60 },
      { sub: "u1", sid: "never-recorded", signedInAt: now - 60, lastActivity: now - 60 },
      { sub: "u1", signedInAt: now - 60, lastActivity: now - 60 },
    ]) {
      await expect(jwt({ token })).rejects.toThrow(/signed out/);
      await expect(jwt({ token, trigger: "update" })).rejects.toThrow(/signed out/);
    }
  });

  it("ends an idle session and one past 12 hours", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(
      jwt({ token: { sub: "u1", signedInAt: now - 1000, lastActivity: now - 901 }, trigger: "update" }),
    ).rejects.toThrow(/idle/);
    await expect(
      jwt({ token: { sub: "u1", signedInAt: now - 12 * 3600 - 1, lastActivity: now } }),
    ).rejects.toThrow(/absolute/);
  });
});
