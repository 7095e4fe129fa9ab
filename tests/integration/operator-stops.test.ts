// What an operator meets under `npm start`: every request counted in the metrics (pages, sign-in
// and unknown paths too, an API route once), a crashed program started again while the other keeps
// answering, and a stop during steady traffic that answers or refuses every request (no client has
// its connection reset) and stops the dashboard before the bank; and a start whose dashboard port
// another server holds stops with the reason instead of calling that server its dashboard.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_BUNDLE } from "../../scripts/bank-build.ts";
import { CookieBrowser } from "../helpers/cookie-browser.ts";
import { childPid, type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { freePort } from "../helpers/ports.ts";
import { waitFor } from "./webhooks-receivers.ts";

const TOKEN = "metrics-token-operator-0123456789";

/** The value of one sample of a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

describe("npm start, for an operator", () => {
  let app: RunningDashboard;
  beforeAll(async () => {
    app = await startDashboard({
      env: {
        NODE_ENV: "production",
        METRICS_TOKEN: TOKEN,
        DASHBOARD_DRAIN_DELAY_MS: "1000",
        BANK_DRAIN_DELAY_MS: "500",
      },
      via: "node",
      timeoutMs: 900_000,
    });
  }, 900_000);
  afterAll(async () => {
    await app?.stop();
  }, 60_000);

  const scrape = async () =>
    (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

  it("counts pages, sign-in and unknown paths in the request metrics, and an API route once", async () => {
    const admin = app.users.find((u) => u.role === "admin");
    if (!admin) throw new Error("no demo admin");
    const before = await scrape();
    const browser = new CookieBrowser(app.url);
    expect((await browser.fetch("/sign-in")).status).toBe(200);
    expect(await browser.signIn(admin.email, admin.password)).toBeNull();
    expect((await browser.fetch("/no-such-page-here")).status).toBe(404);
    expect((await browser.fetch("/api/accounts")).status).toBe(200);
    const counted = [
      { method: "GET", route: "/sign-in", status: "200" },
      { method: "POST", route: "/api/auth/callback/credentials", status: "200" },
      { method: "GET", route: "(not found)", status: "404" },
      { method: "GET", route: "/api/accounts", status: "200" },
    ];
    const grewIn = (text: string, labels: Record<string, string>) =>
      sample(text, "dashboard_http_requests_total", labels) -
      sample(before, "dashboard_http_requests_total", labels);
    // The server counts each request once its answer is sent, so a scrape may come before the
    // last count (a 404 page's was seen to): wait until every one has moved, then say by how much.
    const after =
      (await waitFor(async () => {
        const text = await scrape();
        return counted.every((labels) => grewIn(text, labels) > 0) ? text : undefined;
      }, 10_000).catch(() => undefined)) ?? (await scrape());
    for (const labels of counted) expect(grewIn(after, labels), JSON.stringify(labels)).toBe(1);
    // A path a client makes up is no label of its own.
    expect(after).not.toContain("no-such-page-here");
  });

  it("starts a crashed bank again, with a line in the log, while the dashboard keeps answering", async () => {
    const bankPid = childPid(app.pid, BANK_BUNDLE);
    expect(bankPid).toBeTruthy();
    process.kill(bankPid as number, "SIGKILL");
    await waitFor(
      () => /the bank stopped unexpectedly \(SIGKILL\); starting it again/.test(app.output()),
      30_000,
    );
    // The dashboard did not stop with it.
    expect((await fetch(`${app.url}/livez`)).status).toBe(200);
    await waitFor(() => /the bank started again/.test(app.output()), 30_000);
    const again = await waitFor(() => {
      const pid = childPid(app.pid, BANK_BUNDLE);
      return pid && pid !== bankPid ? pid : undefined;
    }, 30_000);
    expect(again).not.toBe(bankPid);
    expect(app.output()).not.toMatch(/The dashboard stopped/);
    // The restarted bank serves the dashboard again.
    const admin = app.users.find((u) => u.role === "admin");
    if (!admin) throw new Error("no demo admin");
    const browser = new CookieBrowser(app.url);
    expect(await browser.signIn(admin.email, admin.password)).toBeNull();
    await waitFor(async () => (await browser.fetch("/api/accounts")).status === 200 || undefined, 120_000);
  });

  it("answers or refuses every request during a stop (no reset), and stops the dashboard before the bank", async () => {
    const admin = app.users.find((u) => u.role === "admin");
    if (!admin) throw new Error("no demo admin");
    const browser = new CookieBrowser(app.url);
    expect(await browser.signIn(admin.email, admin.password)).toBeNull();
    const resets: string[] = [];
    const answered = new Map<number, number>();
    let refused = 0;
    let running = true;
    // Four clients, each on its keep-alive connection: reads, pages and a POST the dashboard rejects.
    const client = async (n: number) => {
      const paths = ["/api/accounts", "/sign-in", "/api/health", "/api/webhooks"];
      while (running) {
        const p = paths[n % paths.length];
        try {
          const res = await browser.fetch(p, {
            ...(p === "/api/webhooks"
              ? {
                  method: "POST",
                  headers: { origin: app.url, "content-type": "application/json" },
                  body: JSON.stringify({ accountNumber: "not-a-number" }),
                }
              : {}),
          });
          await res.arrayBuffer();
          answered.set(res.status, (answered.get(res.status) ?? 0) + 1);
        } catch (e) {
          const cause = (e as { cause?: { code?: string; message?: string } }).cause;
          // A closed listener refuses a new connection: the client knows nothing was sent.
          if (cause?.code === "ECONNREFUSED") {
            refused++;
            if (refused > 20) return;
            await new Promise((r) => setTimeout(r, 20));
          } else resets.push(`${p}: ${cause?.code ?? ""} ${cause?.message ?? (e as Error).message}`);
        }
      }
    };
    const clients = [0, 1, 2, 3, 4, 5, 6, 7].map(client);
    await new Promise((r) => setTimeout(r, 1000));
    process.kill(app.pid, "SIGTERM");
    await waitFor(() => /The bank stopped \(/.test(app.output()), 60_000);
    running = false;
    await Promise.all(clients);
    expect(resets).toEqual([]);
    expect(refused).toBeGreaterThan(0);
    expect([...answered.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(8);
    const out = app.output();
    expect(out).toContain("The dashboard stopped (exit code 0).");
    expect(out).toContain("The bank stopped (exit code 0).");
    expect(out.indexOf("The dashboard stopped")).toBeLessThan(out.indexOf("The bank stopped"));
  });
});

describe("npm start, when another server holds the dashboard's port", () => {
  it("does not take that server's health answer for its own dashboard: it says why it stopped, and never prints ready", async () => {
    // Another program's dashboard on the port, healthy by every other measure.
    const other = http.createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ status: "ok" }));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, "127.0.0.1", resolve));
    try {
      const started = startDashboard({
        env: { PORT: String(port), START_RESTART_LIMIT: "1", START_RESTART_PAUSE_MS: "100" },
        via: "node",
        timeoutMs: 300_000,
      });
      const error = await started.then(
        async (app) => {
          await app.stop();
          return "";
        },
        (e: Error) => e.message,
      );
      expect(error, "npm start called another server its dashboard").toMatch(/exited with 1/);
      expect(error).toMatch(/EADDRINUSE/);
      expect(error).toMatch(/the dashboard stopped unexpectedly .* giving up/);
      expect(error).not.toMatch(/Dashboard ready/);
    } finally {
      other.close();
    }
  }, 300_000);
});
