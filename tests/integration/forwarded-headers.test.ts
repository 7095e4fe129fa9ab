// Forwarding headers are believed only from a proxy named in TRUSTED_PROXIES, against `npm start`
// (whose server appends the connection's address to X-Forwarded-For). By default a client that
// sends a new X-Forwarded-For with each attempt is still one address to the sign-in limit, the
// audit log records the address it connected from, and an X-Forwarded-Host of its own does not
// make a cross-site request look same-origin. Behind a named proxy (the loopback here), the
// address the proxy forwards is the client's.
import { afterAll, describe, expect, it } from "vitest";
import type { AuditResponse } from "../../lib/dashboard-api/index.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { signInAttempt, signInHttp } from "../helpers/live.ts";

const started: RunningDashboard[] = [];

afterAll(async () => {
  for (const app of started) await app.stop();
}, 60_000);

async function start(env: Record<string, string>): Promise<RunningDashboard> {
  const app = await startDashboard({
    env: { SIGN_IN_RATE_LIMIT_PER_MINUTE: "10", ...env },
    timeoutMs: 900_000,
  });
  started.push(app);
  return app;
}

/** One credentials sign-in attempt; next-auth's error code, or null when it signed in. */
async function attempt(
  app: RunningDashboard,
  email: string,
  password: string,
  forwardedFor: string,
): Promise<string | null> {
  return (await signInAttempt(app.url, email, password, { headers: { "x-forwarded-for": forwardedFor } }))
    .error;
}

/** A demo user's session, signed in from the loopback. */
function signedIn(app: RunningDashboard, role: string): Promise<string> {
  const user = app.users.find((u) => u.role === role);
  if (!user) throw new Error(`no demo ${role}`);
  return signInHttp(app.url, user.email, user.password);
}

async function auditOf(app: RunningDashboard, cookie: string, email: string) {
  const res = await fetch(`${app.url}/api/admin/audit?action=auth.sign_in`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as AuditResponse).entries.filter((e) => e.actorEmail === email);
}

const spoofed = (i: number) => `198.51.100.${i + 1}`;
let byDefault: Promise<{ app: RunningDashboard; adminCookie: string; viewerCookie: string }> | undefined;
/**
 * The dashboard with its default settings and two sessions, signed in first (the loopback is about
 * to use up its sign-in allowance for the minute): started by whichever test asks first, so each
 * test also runs alone.
 */
const defaultApp = () =>
  (byDefault ??= (async () => {
    const app = await start({});
    return { app, adminCookie: await signedIn(app, "admin"), viewerCookie: await signedIn(app, "viewer") };
  })());

describe.sequential("forwarding headers", () => {
  it("by default: a new X-Forwarded-For per attempt is still limited, and the audit log has the real address", async () => {
    const { app, adminCookie } = await defaultApp();
    const outcomes: (string | null)[] = [];
    for (let i = 0; i < 40; i++)
      outcomes.push(await attempt(app, `nobody-${i}@forwarded.example`, "wrong password", spoofed(i)));
    // Ten a minute from one address: 40 attempts cannot all fit, whichever minutes they fall in.
    expect(outcomes).toContain("rate_limited");
    expect(outcomes.filter((o) => o === "rate_limited").length).toBeGreaterThanOrEqual(20);

    const entries = await auditOf(app, adminCookie, "nobody-0@forwarded.example");
    expect(entries.map((e) => e.ip)).toEqual(["127.0.0.1"]);
    const all = await Promise.all(
      [1, 20, 39].map((i) => auditOf(app, adminCookie, `nobody-${i}@forwarded.example`)),
    );
    expect(all.flat().map((e) => e.ip)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
  }, 900_000);

  it("by default: X-Forwarded-Host from a client does not make another site same-origin", async () => {
    const { app, viewerCookie } = await defaultApp();
    const res = await fetch(`${app.url}/api/profile/totp`, {
      method: "POST",
      headers: {
        cookie: viewerCookie,
        "content-type": "application/json",
        origin: "https://attacker.example",
        "x-forwarded-host": "attacker.example",
        "x-forwarded-proto": "https",
      },
      body: "{}",
    });
    expect(res.status).toBe(403);
  });

  it("behind a proxy named in TRUSTED_PROXIES: the address it forwards is the client's", async () => {
    if (byDefault) await (await byDefault).app.stop();
    const app = await start({ TRUSTED_PROXIES: "127.0.0.1" });
    const outcomes: (string | null)[] = [];
    for (let i = 0; i < 12; i++)
      outcomes.push(await attempt(app, `proxied-${i}@forwarded.example`, "wrong password", spoofed(i)));
    // Each attempt comes from another client: none is limited.
    expect(outcomes).not.toContain("rate_limited");
    const entries = await auditOf(app, await signedIn(app, "admin"), "proxied-3@forwarded.example");
    expect(entries.map((e) => e.ip)).toEqual([spoofed(3)]);

    // The proxy says which host and scheme the browser used.
    const cookie = await signedIn(app, "viewer");
    const res = await fetch(`${app.url}/api/profile/totp`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": "application/json",
        origin: "https://treasury.example",
        "x-forwarded-host": "treasury.example",
        "x-forwarded-proto": "https",
      },
      body: "{}",
    });
    // Enrolling needs the password, so the body is refused on its fields; what matters here is that
    // the same-origin check let the request through (a cross-site refusal is a 403).
    expect(res.status).not.toBe(403);
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { error?: { code?: string } };
    expect(body.error?.code).not.toBe("forbidden");
  }, 900_000);
});
