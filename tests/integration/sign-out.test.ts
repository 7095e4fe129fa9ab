// Sign-out ends the session on the server, against `npm start`: a copy of the cookie taken before
// signing out is refused by the API, the pages and the live stream, reads as no session at
// next-auth's own endpoint, and cannot be refreshed there. Another session of the same user goes on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { signInHttp, signOutHttp } from "../helpers/live.ts";

let app: RunningDashboard;

beforeAll(async () => {
  app = await startDashboard({ timeoutMs: 900_000 });
}, 900_000);

afterAll(async () => {
  await app?.stop();
}, 60_000);

const get = (p: string, cookie: string) =>
  fetch(`${app.url}${p}`, { headers: { cookie }, redirect: "manual" });

/** POST /api/auth/session: next-auth's session update, the idle guard's "Stay signed in". */
async function refresh(cookie: string): Promise<{ body: unknown; setCookies: string[] }> {
  const { csrfToken } = (await (await get("/api/auth/csrf", cookie)).json()) as { csrfToken: string };
  const res = await fetch(`${app.url}/api/auth/session`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: app.url },
    body: JSON.stringify({ csrfToken, data: {} }),
  });
  return { body: await res.json(), setCookies: res.headers.getSetCookie() };
}

describe("signing out", () => {
  it("refuses a copy of the signed-out cookie everywhere, and leaves other sessions open", async () => {
    const viewer = app.users.find((u) => u.role === "viewer");
    if (!viewer) throw new Error("no demo viewer");
    const copied = await signInHttp(app.url, viewer.email, viewer.password);
    const other = await signInHttp(app.url, viewer.email, viewer.password);
    expect((await get("/api/me", copied)).status).toBe(200);
    expect(((await (await get("/api/auth/session", copied)).json()) as { user?: unknown }).user).toBeTruthy();

    await signOutHttp(app.url, copied);

    const me = await get("/api/me", copied);
    expect(me.status).toBe(401);
    expect(((await me.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    expect(await (await get("/api/auth/session", copied)).json()).toEqual({});
    const refreshed = await refresh(copied);
    expect(refreshed.body).toEqual({});
    // No fresh session cookie comes back: only the clearing of the old one.
    const issued = refreshed.setCookies.filter((c) => /session-token=[^;]/.test(c));
    expect(issued).toEqual([]);
    expect((await get("/api/me", copied)).status).toBe(401);
    expect((await get("/api/events", copied)).status).toBe(401);
    expect((await get("/api/session", copied)).status).toBe(401);
    const page = await get("/accounts", copied);
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toMatch(/^\/sign-in\b/);

    // The same user's other session is a session of its own.
    expect((await get("/api/me", other)).status).toBe(200);
    expect((await refresh(other)).body).toMatchObject({ user: { email: viewer.email } });
  });
});
