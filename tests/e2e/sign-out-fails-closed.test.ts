// Sign-out fails closed: on a dashboard over PostgreSQL, the database is made to refuse every
// change to the `sessions` table (a trigger: a real fault of the real database), so the revoke
// cannot be written. The sign-out answers an error and keeps the cookie, and the page says the
// session is still open; nothing pretends it ended while a copy of the cookie goes on working.
// Once the database takes the write again, the server ends the session by itself.
import pg from "pg";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";
import { signInHttp } from "../helpers/live.ts";

describe.skipIf(!PG_URL)("sign-out when the session's revoke cannot be written", () => {
  let database: { url: string; drop(): Promise<void> };
  let app: RunningDashboard;
  let browser: Browser;
  let sql: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase(PG_URL as string);
    app = await startDashboard({ env: { DATABASE_URL: database.url }, timeoutMs: 900_000 });
    browser = await launchChromium();
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 900_000);

  afterAll(async () => {
    await sql?.end();
    await browser?.close();
    await app?.stop();
    await database?.drop();
  });

  const refuseSessionChanges = async () => {
    await sql.query(`CREATE OR REPLACE FUNCTION refuse_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'sessions cannot be changed now'; END $$`);
    await sql.query(
      "CREATE TRIGGER refuse_session_change BEFORE UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION refuse_session_change()",
    );
  };
  const allowSessionChanges = () => sql.query("DROP TRIGGER refuse_session_change ON sessions");
  const me = (cookie: string) => fetch(`${app.url}/api/me`, { headers: { cookie } }).then((r) => r.status);
  const signOutAnswer = async (cookie: string) => {
    const { csrfToken } = (await (
      await fetch(`${app.url}/api/auth/csrf`, { headers: { cookie } })
    ).json()) as {
      csrfToken: string;
    };
    return fetch(`${app.url}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: app.url },
      body: new URLSearchParams({ csrfToken, json: "true" }),
    });
  };
  const clearsSession = (res: Response) => res.headers.getSetCookie().some((c) => /session-token=;/.test(c));
  const until = async (probe: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > end) throw new Error(`not so within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  it("answers an error and keeps the cookie, and a later sign-out ends the copy", async () => {
    const viewer = app.users.find((u) => u.role === "viewer");
    if (!viewer) throw new Error("no demo viewer");
    const cookie = await signInHttp(app.url, viewer.email, viewer.password);
    await refuseSessionChanges();
    try {
      const res = await signOutAnswer(cookie);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
        code: "sign_out_failed",
        message: expect.stringMatching(/^You are still signed in/),
      });
      expect(clearsSession(res)).toBe(false);
      // Still open, as the answer said: the session was neither ended nor pretended to be.
      expect(await me(cookie)).toBe(200);
    } finally {
      await allowSessionChanges();
    }
    const again = await signOutAnswer(cookie);
    expect(again.status).toBe(200);
    expect(clearsSession(again)).toBe(true);
    expect(await me(cookie)).toBe(401);
    const audit = await sql.query<{ result: string }>(
      "SELECT result FROM audit_log WHERE action = 'auth.sign_out' AND actor_email = $1 ORDER BY id",
      [viewer.email],
    );
    expect(audit.rows.map((r) => r.result)).toEqual([
      "failed: the session could not be revoked and stays open",
      "ok",
    ]);
  });

  it("tells the person at the page, and ends the session by itself once the database takes the revoke", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await signIn(app, context, "approver");
      const copy = (await context.cookies())
        .filter((c) => c.name.endsWith("session-token"))
        .map((c) => `${c.name}=${c.value}`)
        .join("; ");
      expect(await me(copy)).toBe(200);
      await refuseSessionChanges();
      try {
        await page.getByRole("button", { name: "Sign out" }).click();
        await page
          .getByRole("alert")
          .filter({ hasText: "You are still signed in" })
          .waitFor({ timeout: FIRST_WAIT });
        expect(page.url()).toMatch(/\/accounts/);
        expect(await page.getByRole("button", { name: "Try signing out again" }).isEnabled()).toBe(true);
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await me(copy)).toBe(200);
      } finally {
        await allowSessionChanges();
      }
      // No one signs out again: the server keeps at the revoke until it holds.
      await until(async () => (await me(copy)) === 401, 90_000);
      await page.getByRole("button", { name: "Try signing out again" }).click();
      await page.waitForURL(/\/sign-in/, { timeout: FIRST_WAIT });
    } finally {
      await context.close();
    }
  });
});
