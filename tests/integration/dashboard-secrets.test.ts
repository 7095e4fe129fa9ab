// The subscription key, the bank access token, the webhook secret and the live receiver's path
// token never reach a browser: `npm start` (which
// builds the app into its own folder) runs the bank and the dashboard; a staff member signs in
// over HTTP through next-auth's CSRF and credentials callback and opens every API route and
// page; then every client bundle and every response is searched for both secrets.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBankDb } from "../../bank/db/client.ts";
import { openDashboardDb } from "../../lib/db/client.ts";
import { CookieBrowser } from "../helpers/cookie-browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
/** The build `npm start` serves, which every test file that starts it shares. */
const DIST = ".next";
/** The API's answers (JSON, CSV, event streams) run nothing: their policy allows nothing. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

let app: RunningDashboard;
let dataDir: string;
let base = "";
let bankUrl = "";
const demoUsers: Record<string, { email: string; password: string }> = {};
/** Every body and header the walk-through received, with where it came from. */
const seen: { where: string; text: string }[] = [];

beforeAll(async () => {
  app = await startDashboard({
    env: { NODE_ENV: "production", NEXT_DIST_DIR: DIST },
    via: "node",
    timeoutMs: 900_000,
  });
  ({ dataDir, url: base } = app);
  for (const u of app.users) demoUsers[u.role] ??= { email: u.email, password: u.password };
  bankUrl = /^Bank: (\S+)$/m.exec(app.output())?.[1] ?? "";
}, 900_000);

afterAll(async () => {
  await app?.stop();
}, 60_000);

/** Every answer it reads is kept in `seen`, to look for secrets in all of them. */
class Browser extends CookieBrowser {
  constructor() {
    super(base);
  }
  override async request(p: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
    const res = await this.fetch(p, init);
    const text = await res.text();
    seen.push({
      where: `${init.method ?? "GET"} ${p}`,
      text: `${[...res.headers].map((h) => h.join(": ")).join("\n")}\n\n${text}`,
    });
    return { status: res.status, text };
  }
}

describe("npm start", () => {
  it("prints the demo users of every role and the bank URL", () => {
    expect(Object.keys(demoUsers).sort()).toEqual(["admin", "approver", "preparer", "viewer"]);
    expect(demoUsers.admin.email).toBe("admin@northwind.example");
    expect(bankUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const mode = (f: string) => fs.statSync(path.join(dataDir, f)).mode & 0o777;
    expect(mode("demo-users.json")).toBe(0o600);
    expect(mode("dashboard-secret")).toBe(0o600);
  });
});

describe("no secret reaches a browser", () => {
  it("signs in over HTTP and walks every API route and page", async () => {
    const admin = new Browser();
    expect(await admin.signIn(demoUsers.admin.email, demoUsers.admin.password)).toBeNull();
    const accounts = await admin.request("/api/accounts");
    expect(accounts.status).toBe(200);
    const list = JSON.parse(accounts.text) as { accounts: { accountNumber: string }[] };
    expect(list.accounts.length).toBeGreaterThan(0);
    const n = list.accounts[0].accountNumber;
    const apis = [
      "/api/health",
      "/api/me",
      "/api/session",
      `/api/accounts/${n}`,
      `/api/accounts/${n}/balance`,
      `/api/accounts/${n}/history`,
      "/api/admin/users",
      "/api/admin/audit",
      "/api/webhooks",
      "/api/profile/totp",
      "/api/auth/session",
      "/api/auth/providers",
    ];
    for (const p of apis) expect((await admin.request(p)).status, p).toBe(200);
    const pages = [
      "/",
      "/sign-in",
      "/accounts",
      `/accounts/${n}`,
      "/profile",
      "/admin",
      "/admin/users",
      "/admin/audit",
      "/webhooks",
    ];
    for (const p of pages) expect((await admin.request(p)).status, p).toBeLessThan(500);
    expect(await admin.request("/accounts").then((r) => r.status)).toBe(200);

    // A viewer sees the same accounts; refusals are bodies too.
    const viewer = new Browser();
    expect(await viewer.signIn(demoUsers.viewer.email, demoUsers.viewer.password)).toBeNull();
    expect((await viewer.request("/api/accounts")).status).toBe(200);
    // The webhooks list (every role reads it) names the dashboard's receiver, its token masked.
    // The first live listener has the dashboard register its receiver at the bank.
    const events = await viewer.fetch("/api/events");
    expect(events.headers.get("content-type")).toContain("text/event-stream");
    await events.body?.cancel();
    const hooks = JSON.parse((await viewer.request("/api/webhooks")).text) as {
      webhooks: { url: string; owner: string }[];
    };
    const live = hooks.webhooks.filter((h) => h.owner === "live");
    expect(live.length).toBeGreaterThan(0);
    for (const h of live) expect(h.url).toMatch(/\/api\/bank-events\/••••••$/);
    expect((await viewer.request("/webhooks")).status).toBe(200);
    expect((await viewer.request("/api/admin/users")).status).toBe(403);
    expect((await new Browser().request("/api/accounts")).status).toBe(401);
  });

  it("sends security headers on pages and API answers, and refuses a cross-site state change", async () => {
    const SECURITY_HEADERS = {
      // Over plain http no HSTS: it would pin browsers to https on a server that has none.
      "strict-transport-security": null,
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
      "cross-origin-opener-policy": "same-origin",
    };
    const securityHeaders = (res: Response) =>
      Object.fromEntries(Object.keys(SECURITY_HEADERS).map((h) => [h, res.headers.get(h)]));
    const b = new Browser();
    expect(await b.signIn(demoUsers.viewer.email, demoUsers.viewer.password)).toBeNull();
    const accounts = JSON.parse(await (await b.fetch("/api/accounts")).text()) as {
      accounts: { accountNumber: string }[];
    };
    const n = accounts.accounts[0].accountNumber;
    for (const p of ["/sign-in", "/accounts", "/api/health", `/api/accounts/${n}/balance`, "/api/nowhere"]) {
      const res = await b.fetch(p);
      await res.arrayBuffer();
      expect(securityHeaders(res), p).toEqual(SECURITY_HEADERS);
      // A page's policy is its own (the next test); the API's answers run nothing at all.
      if (p.startsWith("/api/")) expect(res.headers.get("content-security-policy"), p).toBe(API_POLICY);
      else expect(res.headers.get("content-security-policy"), p).toMatch(/script-src 'self' 'nonce-/);
    }
    expect(securityHeaders(await new Browser().fetch("/api/me")), "401").toEqual(SECURITY_HEADERS);
    // Behind a TLS proxy (the public address is https), HSTS on pages and API answers alike.
    for (const p of ["/sign-in", "/api/health"]) {
      const res = await b.fetch(p, { headers: { "x-forwarded-proto": "https" } });
      await res.arrayBuffer();
      expect(res.headers.get("strict-transport-security"), p).toBe("max-age=63072000; includeSubDomains");
    }

    const crossSite = { error: { code: "forbidden", message: "Cross-site requests are not accepted." } };
    for (const [p, type, body] of [
      ["/api/admin/users", "application/json", "{}"],
      ["/api/profile/totp", "application/json", "{}"],
      ["/api/auth/signout", "application/x-www-form-urlencoded", "csrfToken=x"],
    ]) {
      const res = await b.fetch(p, {
        method: "POST",
        headers: { origin: "https://attacker.example", "content-type": type },
        body,
      });
      expect(res.status, p).toBe(403);
      expect(await res.json(), p).toEqual(crossSite);
      expect(securityHeaders(res), p).toEqual(SECURITY_HEADERS);
      expect(res.headers.get("content-security-policy"), p).toBe(API_POLICY);
    }
    // Still signed in: the refused sign-out did nothing.
    expect((await b.fetch("/api/me")).status).toBe(200);
  });

  it("gives every page a script policy with a fresh nonce, and that nonce on every script it sends", async () => {
    const b = new Browser();
    expect(await b.signIn(demoUsers.admin.email, demoUsers.admin.password)).toBeNull();
    const nonces = new Set<string>();
    let staticFile = "";
    for (const p of [
      "/sign-in",
      "/accounts",
      "/accounts",
      "/admin/users",
      "/profile",
      "/webhooks",
      "/nowhere",
    ]) {
      const res = await b.fetch(p);
      const html = await res.text();
      const policy = res.headers.get("content-security-policy") ?? "";
      const directives = Object.fromEntries(
        policy.split(/;\s*/).map((d) => [d.split(" ")[0], d.split(" ").slice(1)] as const),
      );
      const nonce = /^'nonce-([A-Za-z0-9+/]{16,}={0,2})'$/.exec(
        directives["script-src"]?.find((s) => s.startsWith("'nonce-")) ?? "",
      )?.[1];
      expect(nonce, `${p}: ${policy}`).toBeTruthy();
      // Inline scripts only with the nonce, files only from here: no 'unsafe-inline', and no
      // 'strict-dynamic', which would let a running script add inline scripts of its own.
      expect(directives["script-src"], p).toEqual(["'self'", `'nonce-${nonce}'`]);
      expect(directives["object-src"], p).toEqual(["'none'"]);
      expect(directives["frame-ancestors"], p).toEqual(["'none'"]);
      expect(nonces.has(nonce as string), `${p} repeats a nonce`).toBe(false);
      nonces.add(nonce as string);
      // Every script the page sends, inline or not, carries this response's nonce.
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, p).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, p).toContain(` nonce="${nonce}"`);
      staticFile ||= /<script\b[^>]*\bsrc="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1] ?? "";
    }
    // A prefetch is a page like any other: it carries its policy, and its scripts carry the nonce.
    const prefetches: Record<string, string>[] = [
      { purpose: "prefetch" },
      { "next-router-prefetch": "1" },
      { "sec-purpose": "prefetch" },
    ];
    for (const prefetch of prefetches) {
      const res = await b.fetch("/accounts", { headers: prefetch });
      const body = await res.text();
      const policy = res.headers.get("content-security-policy") ?? "";
      const label = JSON.stringify(prefetch);
      expect(policy, label).toMatch(/script-src 'self' 'nonce-/);
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
      for (const tag of body.match(/<script\b[^>]*>/g) ?? [])
        expect(tag, label).toContain(` nonce="${nonce}"`);
    }
    // Build files and public/ files alike: no type guessed from what a file holds.
    expect(staticFile).toMatch(/^\/_next\/static\//);
    for (const p of [staticFile, "/favicon.ico", "/icon.svg", "/manifest.webmanifest"]) {
      const res = await b.fetch(p);
      await res.arrayBuffer();
      expect(res.status, p).toBe(200);
      expect(res.headers.get("x-content-type-options"), p).toBe("nosniff");
    }
  });

  it("locks an account after 10 failed sign-ins and says so", async () => {
    const b = new Browser();
    for (let i = 0; i < 10; i++)
      expect(await b.signIn(demoUsers.preparer.email, "wrong password")).toMatch(/^(invalid|locked:30)$/);
    expect(await b.signIn(demoUsers.preparer.email, demoUsers.preparer.password)).toMatch(/^locked:\d+$/);
  });

  it("finds neither the subscription key, the webhook secret nor the token in any bundle or response", async () => {
    // The dashboard database is PGlite, one process at a time: stop the product, keep its data.
    await app.stop({ keepData: true });
    const { subscriptionKey, webhookSecret } = JSON.parse(
      fs.readFileSync(path.join(dataDir, "bank-demo.json"), "utf8"),
    ) as { subscriptionKey: string; webhookSecret: string };
    const db = await openDashboardDb({ dataDir: path.join(dataDir, "dashboard") });
    const tokens = (await db.query<{ token: string | null }>("SELECT token FROM bank_tokens"))
      .map((r) => r.token)
      .filter((t): t is string => !!t);
    await db.close();
    // The receiver's path token, as the bank holds it.
    const bankDb = await openBankDb({ dataDir: path.join(dataDir, "bank") });
    const receiverTokens = (
      await bankDb.query<{ url: string }>("SELECT url FROM webhooks WHERE url LIKE '%/api/bank-events/%'")
    ).map((r) => r.url.split("/api/bank-events/")[1]);
    await bankDb.close();
    expect(receiverTokens.length).toBeGreaterThan(0);
    expect(receiverTokens[0]).toMatch(/^[\w-]{32}$/);
    expect(subscriptionKey).toMatch(/^sk_/);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(tokens.length).toBeGreaterThan(0);
    // The webhook secret whole and its key part (what the signatures are made with).
    const secrets = [
      subscriptionKey,
      webhookSecret,
      webhookSecret.slice("whsec_".length),
      ...tokens,
      ...new Set(receiverTokens),
    ];

    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(path.join(ROOT, DIST, "static"));
    expect(files.some((f) => f.endsWith(".js"))).toBe(true);
    for (const f of files) {
      const text = fs.readFileSync(f, "utf8");
      for (const s of secrets)
        expect(text.includes(s), `${path.relative(ROOT, f)} holds a secret`).toBe(false);
    }
    expect(seen.length).toBeGreaterThan(20);
    for (const r of seen)
      for (const s of secrets) expect(r.text.includes(s), `${r.where} returned a secret`).toBe(false);
  }, 60_000);
});
