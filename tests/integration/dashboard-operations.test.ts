// What an on-call engineer reads from the dashboard: /metrics behind METRICS_TOKEN (counted by
// route pattern, with what waits for a second person), readiness that follows the database's
// migrations, one trace id from the dashboard's log lines to the bank's, and a SIGTERM under
// `npm start` that turns readiness off first, lets the request in flight finish and exits 0.

import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { CookieBrowser } from "../helpers/cookie-browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { invoke, openTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";
import { waitFor } from "./webhooks-receivers.ts";

process.env.NEXTAUTH_SECRET ??= "test-nextauth-secret-0123456789abcdef";
process.env.NEXTAUTH_URL ??= "http://127.0.0.1:3999";

const mod = {
  metrics: () => import("../../app/metrics/route.ts"),
  readyz: () => import("../../app/readyz/route.ts"),
  livez: () => import("../../app/livez/route.ts"),
  health: () => import("../../app/api/health/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
};

/** The value of one sample of a Prometheus text exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe("the dashboard's metrics and readiness, in process", () => {
  let dashboard: TestDashboardDb;
  let db: DashboardDb;
  let preparer: UserRow;
  const TOKEN = "metrics-token-0123456789abcdef";
  beforeAll(async () => {
    dashboard = await openTestDashboardDb("dashboard-operations");
    db = dashboard.db;
    preparer = await testUser(db, "preparer", "ops-preparer@example.com");
  });
  afterAll(async () => {
    delete process.env.METRICS_TOKEN;
    await dashboard?.close();
  });

  it("has no /metrics without METRICS_TOKEN, and refuses a scrape without the token", async () => {
    delete process.env.METRICS_TOKEN;
    expect((await invoke(mod.metrics, "GET", "/metrics")).status).toBe(404);
    process.env.METRICS_TOKEN = TOKEN;
    const none = await invoke(mod.metrics, "GET", "/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await invoke(mod.metrics, "GET", "/metrics", { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain("dashboard_http_requests_total");
  });

  it("counts requests by route pattern, never by an id, and shows the drafts waiting", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    const id = randomUUID();
    expect((await invoke(mod.health, "GET", "/api/health")).status).toBe(200);
    expect(
      (await invoke(mod.draft, "GET", `/api/drafts/${id}`, { as: preparer, params: { id } })).status,
    ).toBe(404);
    await db.query(
      `INSERT INTO payment_drafts (id, kind, from_account, amount_cents, counterparty, request, prepared_by, prepared_by_email, prepared_at)
       VALUES ($1, 'wire', '1234567890', 100, 'X', '{}'::jsonb, $2, $3, now() - interval '1 hour')`,
      [randomUUID(), preparer.id, preparer.email],
    );
    const m = await invoke(mod.metrics, "GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(m.status).toBe(200);
    expect(m.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(
      sample(m.text, "dashboard_http_requests_total", { method: "GET", route: "/api/health", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(m.text, "dashboard_http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/drafts/[id]",
        status: "404",
      }),
    ).toBe(1);
    expect(m.text).not.toContain(id);
    expect(sample(m.text, "dashboard_drafts_waiting")).toBe(1);
    expect(sample(m.text, "dashboard_drafts_oldest_waiting_age_seconds")).toBeGreaterThanOrEqual(3600);
    expect(sample(m.text, "dashboard_incoming_wires_waiting", { stage: "second_approval" })).toBe(0);
  });

  it("is live, and ready only while every migration is applied", async () => {
    expect((await invoke(mod.livez, "GET", "/livez")).json).toEqual({ status: "ok" });
    expect((await invoke(mod.readyz, "GET", "/readyz")).json).toEqual({ status: "ok" });
    const [newest] = await db.query<{ id: number; hash: string; created_at: string }>(
      "SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1",
    );
    await db.query("DELETE FROM drizzle.__drizzle_migrations WHERE id = $1", [newest.id]);
    const unready = await invoke(mod.readyz, "GET", "/readyz");
    expect(unready.status).toBe(503);
    expect(unready.json).toEqual({ status: "unavailable", reason: "migrations not applied" });
    await db.query("INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES ($1, $2, $3)", [
      newest.id,
      newest.hash,
      newest.created_at,
    ]);
    expect((await invoke(mod.readyz, "GET", "/readyz")).status).toBe(200);
  });
});

/** The JSON log lines in a process's output (each program prefixed by `npm start`). */
function jsonLines(output: string, program: "bank" | "dashboard"): Record<string, unknown>[] {
  const prefix = `[${program}] `;
  return output
    .split("\n")
    .filter((l) => l.startsWith(`${prefix}{`))
    .map((l) => {
      try {
        return JSON.parse(l.slice(prefix.length)) as Record<string, unknown>;
      } catch {
        return {};
      }
    });
}

describe("both programs under npm start", () => {
  let app: RunningDashboard;
  const TOKEN = "metrics-token-npm-start-0123456789";
  beforeAll(async () => {
    app = await startDashboard({
      env: {
        NODE_ENV: "production",
        METRICS_TOKEN: TOKEN,
        // Long enough for this test to see readiness fail while the dashboard still answers.
        DASHBOARD_DRAIN_DELAY_MS: "5000",
      },
      via: "node",
      timeoutMs: 900_000,
    });
  }, 900_000);
  afterAll(async () => {
    await app?.stop();
  }, 60_000);

  it("follows one request from the dashboard's log to the bank's by its trace id", async () => {
    const admin = app.users.find((u) => u.role === "admin");
    if (!admin) throw new Error("no demo admin");
    const browser = new CookieBrowser(app.url);
    expect(await browser.signIn(admin.email, admin.password)).toBeNull();
    expect((await browser.fetch("/api/accounts")).status).toBe(200);

    // The dashboard made a trace id for the request and logged it; the bank logged the same one.
    const line = await waitFor(
      () =>
        jsonLines(app.output(), "dashboard").find(
          (l) => l.msg === "request" && l.route === "/api/accounts" && l.status === 200,
        ),
      30_000,
    );
    expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(line.requestId).toMatch(/\S/);
    const bankLine = await waitFor(
      () => jsonLines(app.output(), "bank").find((l) => l.traceId === line.traceId && l.msg === "request"),
      30_000,
    );
    expect(bankLine.path).toMatch(/^\/v2\//);

    // A caller's own trace continues through both.
    const traceId = randomUUID().replaceAll("-", "");
    const res = await browser.fetch("/api/accounts", {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    await waitFor(
      () => jsonLines(app.output(), "dashboard").find((l) => l.traceId === traceId && l.msg === "request"),
      30_000,
    );
    // The accounts answer may come from the dashboard's cache of an identical read; a balance is read fresh.
    const accounts = (await (await browser.fetch("/api/accounts")).json()) as {
      accounts: { accountNumber: string }[];
    };
    const n = accounts.accounts[0].accountNumber;
    const traced = randomUUID().replaceAll("-", "");
    const bal = await browser.fetch(`/api/accounts/${n}/balance`, {
      headers: { traceparent: `00-${traced}-00f067aa0ba902b7-01` },
    });
    expect(bal.status).toBe(200);
    await waitFor(() => jsonLines(app.output(), "bank").find((l) => l.traceId === traced), 30_000);
    // Each program writes its lines as its output pipe takes them: the dashboard's may come later.
    const dashboardLine = await waitFor(
      () => jsonLines(app.output(), "dashboard").find((l) => l.traceId === traced && l.msg === "request"),
      30_000,
    );
    expect(dashboardLine.route).toBe("/api/accounts/[accountNumber]/balance");
    // No secret in any line of either program.
    for (const l of [...jsonLines(app.output(), "dashboard"), ...jsonLines(app.output(), "bank")])
      expect(JSON.stringify(l)).not.toMatch(/eyJ[\w-]{8,}\.[\w-]{8,}\.|sk_[\w-]{8,}|whsec_[\w-]{8,}/);
  });

  it("serves /metrics to the token's holder only", async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    const m = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(m.status).toBe(200);
    const text = await m.text();
    expect(
      sample(text, "dashboard_http_requests_total", { route: "/api/accounts", status: "200" }),
    ).toBeGreaterThan(0);
    expect(
      sample(text, "dashboard_bank_token_renewals_total", { outcome: "renewed" }),
    ).toBeGreaterThanOrEqual(1);
    const bankUrl = /^Bank: (\S+)$/m.exec(app.output())?.[1];
    const bank = await fetch(`${bankUrl}/metrics`);
    expect(bank.status).toBe(200);
  });

  it("keeps an idle kept-alive connection open past Node's 5 s default, so it never resets a client's next request", async () => {
    const { port } = new URL(app.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = "";
    let closedAt: number | null = null;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("close", () => {
      closedAt = Date.now();
    });
    await new Promise((resolve) => socket.once("connect", resolve));
    const ask = () => socket.write(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const answers = () => received.match(/^HTTP\/1\.1 200/gm)?.length ?? 0;
    ask();
    await expect.poll(answers).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect(closedAt).toBeNull();
    ask();
    await expect.poll(answers).toBe(2);
    socket.destroy();
  });

  it("on SIGTERM turns unready, finishes the request in flight, and both programs exit 0", async () => {
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const admin = app.users.find((u) => u.role === "admin");
    if (!admin) throw new Error("no demo admin");
    const browser = new CookieBrowser(app.url);
    expect(await browser.signIn(admin.email, admin.password)).toBeNull();
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

    // The request in flight: a body that has not all arrived when the stop begins.
    const { port } = new URL(app.url);
    const body = JSON.stringify({ accountNumber: "not-a-number" });
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += d;
    });
    socket.write(
      `POST /api/webhooks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${app.url}\r\nContent-Type: application/json\r\n` +
        `Cookie: ${cookie}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await waitFor(() => answer.includes("100 Continue"), 30_000);
    socket.write(body.slice(0, 5));

    process.kill(app.pid, "SIGTERM");
    const unready = await waitFor(async () => {
      const r = await fetch(`${app.url}/readyz`).catch(() => null);
      return r?.status === 503 ? r.json() : undefined;
    }, 30_000);
    expect(unready).toEqual({ status: "unavailable", reason: "stopping" });

    socket.write(body.slice(5));
    await waitFor(() => /\r\n\r\n[\s\S]*\}/.test(answer.slice(answer.lastIndexOf("HTTP/1.1 "))), 60_000);
    const final = answer.slice(answer.lastIndexOf("HTTP/1.1 "));
    // The handler read the whole body and answered: a 400 naming the field, not a refusal.
    expect(final).toMatch(/^HTTP\/1\.1 400 /);
    expect(final).toContain('"field"');
    socket.destroy();

    await waitFor(() => /The dashboard stopped \(/.test(app.output()), 60_000);
    await waitFor(() => /The bank stopped \(/.test(app.output()), 60_000);
    expect(app.output()).toContain("The dashboard stopped (exit code 0).");
    expect(app.output()).toContain("The bank stopped (exit code 0).");
  });
});
