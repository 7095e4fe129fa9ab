// Sign-out on one dashboard instance ends the session on another: two instances, each started as
// `npm start` starts one, on one PostgreSQL database. A cookie signed out through the first is
// refused by the second at once, and a live stream the second holds for it is closed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";
import { signInHttp, signOutHttp, sseClient, startSecondInstance } from "../helpers/live.ts";

describe.skipIf(!PG_URL)("sign-out across two dashboard instances sharing PostgreSQL", () => {
  let database: { url: string; drop(): Promise<void> };
  let a: RunningDashboard;
  let b: RunningDashboard;

  beforeAll(async () => {
    database = await createTestDatabase(PG_URL as string);
    a = await startDashboard({ env: { DATABASE_URL: database.url }, timeoutMs: 900_000 });
    b = await startSecondInstance(a, database.url);
  }, 1_900_000);

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await database?.drop();
  });

  it("refuses on the second instance a session signed out on the first, and closes its live stream", async () => {
    const viewer = a.users.find((u) => u.role === "viewer");
    if (!viewer) throw new Error("no demo viewer");
    const cookie = await signInHttp(a.url, viewer.email, viewer.password);
    const get = (p: string) => fetch(`${b.url}${p}`, { headers: { cookie } });
    expect((await get("/api/me")).status).toBe(200);
    const stream = sseClient(`${b.url}/api/events`, cookie);
    await stream.opened;

    await signOutHttp(a.url, cookie);

    expect((await get("/api/me")).status).toBe(401);
    expect(await (await get("/api/auth/session")).json()).toEqual({});
    expect((await get("/api/events")).status).toBe(401);
    // The open stream is closed by the second instance's next check of its sessions.
    const closed = await Promise.race([
      stream.closed.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 60_000)),
    ]);
    stream.close();
    expect(closed).toBe(true);
  });
});
