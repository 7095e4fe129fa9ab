// What an on-call engineer reads from the bank: Prometheus metrics that count a SEN transfer by
// its route pattern, liveness and readiness (503 while migrations are missing and once a stop has
// begun), and a SIGTERM that lets the request in flight finish, gives the outbox's leases back and
// exits 0.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBankDb } from "../../bank/db/client.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { bankNodeArgs } from "../../scripts/bank-build.ts";
import {
  call,
  newCustomer,
  sandbox,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
} from "../helpers/bank.ts";
import { freePort } from "../helpers/ports.ts";
import { type Receiver, startReceiver, waitFor } from "./webhooks-receivers.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/** The value of one sample of a Prometheus text exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe("the bank's metrics", () => {
  let bank: TestBank;
  let c: TestCustomer;
  let receiver: Receiver;
  beforeAll(async () => {
    bank = await startTestBank({ env: { BANK_WEBHOOK_RETRY_BASE_MS: "60000" } });
    c = await newCustomer(bank, "Metrics Co");
    receiver = await startReceiver({ answer: () => 503 });
  });
  afterAll(async () => {
    await bank?.close();
    await receiver?.close();
  });

  it("counts a SEN transfer by route pattern and status, its outcome and its group commit", async () => {
    const from = await c.account("SEN", 100);
    const to = await c.account("SEN", 0);
    const t = await c.api("POST", "/v2/account/transfersen", { body: transferBody(from, to, 1.25) });
    expect(t.status).toBe(200);
    expect(t.json.ERROR).toEqual([]);
    // A path holding an account number matches no route: it is counted, never named.
    expect((await c.api("GET", `/v2/account/${from}/balance`)).status).toBe(404);

    const m = await call(bank.url, "GET", "/metrics");
    expect(m.status).toBe(200);
    expect(m.headers.get("content-type")).toMatch(/^text\/plain/);
    const route = { method: "POST", route: "/v2/account/transfersen", status: "200" };
    expect(sample(m.text, "bank_http_requests_total", route)).toBe(1);
    expect(sample(m.text, "bank_http_request_duration_seconds_count", route)).toBe(1);
    expect(sample(m.text, "bank_sen_transfers_total", { outcome: "ok" })).toBe(1);
    expect(sample(m.text, "bank_sen_transfer_batch_size_count")).toBe(1);
    expect(sample(m.text, "bank_sen_transfer_batch_size_sum")).toBe(1);
    expect(sample(m.text, "bank_http_requests_total", { route: "unmatched", status: "404" })).toBe(1);
    expect(m.text).not.toContain(from);
    // Process metrics come along (prom-client's defaults).
    expect(sample(m.text, "bank_process_cpu_seconds_total")).toBeGreaterThan(0);
  });

  it("shows the outbox's depth, its oldest notification's age and delivery failures by receiver", async () => {
    const acct = await c.account("SEN", 10);
    const reg = await c.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: acct, WebHookUrl: receiver.url },
    });
    expect(reg.status).toBe(200);
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: acct, amount: 5 });
    const receiverLabel = `127.0.0.1:${receiver.port}`;
    const text = await waitFor(async () => {
      const m = await call(bank.url, "GET", "/metrics");
      return (sample(m.text, "bank_delivery_failures_total", { channel: "http", receiver: receiverLabel }) ??
        0) >= 1
        ? m.text
        : undefined;
    }, 30_000);
    expect(sample(text, "bank_outbox_pending", { channel: "http" })).toBe(1);
    // The bank's clock moves on an hour: the waiting notification is an hour old.
    await sandbox(bank, "POST", "/sandbox/clock", { advanceSeconds: 3600 });
    const later = await call(bank.url, "GET", "/metrics");
    expect(
      sample(later.text, "bank_outbox_oldest_pending_age_seconds", { channel: "http" }),
    ).toBeGreaterThanOrEqual(3600);
    expect(sample(later.text, "bank_outbox_pending", { channel: "email" })).toBe(0);
  });
});

describe("the bank's metrics settings", () => {
  it("asks for BANK_METRICS_TOKEN as a bearer token when it is set", async () => {
    const bank = await startTestBank({ env: { BANK_METRICS_TOKEN: "scrape-me-0123456789" } });
    try {
      expect((await call(bank.url, "GET", "/metrics")).status).toBe(401);
      const wrong = await call(bank.url, "GET", "/metrics", { headers: { authorization: "Bearer nope" } });
      expect(wrong.status).toBe(401);
      const right = await call(bank.url, "GET", "/metrics", {
        headers: { authorization: "Bearer scrape-me-0123456789" },
      });
      expect(right.status).toBe(200);
      expect(right.text).toContain("bank_http_requests_total");
    } finally {
      await bank.close();
    }
  });

  it("has no /metrics with BANK_METRICS=off", async () => {
    const bank = await startTestBank({ env: { BANK_METRICS: "off" } });
    try {
      expect((await call(bank.url, "GET", "/metrics")).status).toBe(404);
      expect((await call(bank.url, "GET", "/readyz")).status).toBe(200);
    } finally {
      await bank.close();
    }
  });
});

describe("the bank's liveness and readiness", () => {
  it("is live, and ready only while every migration is applied", async () => {
    const bank = await startTestBank();
    try {
      expect((await call(bank.url, "GET", "/livez")).json).toEqual({ status: "ok" });
      expect((await call(bank.url, "GET", "/readyz")).json).toEqual({ status: "ok" });
      expect((await call(bank.url, "GET", "/healthz")).status).toBe(200);
      // A database behind the code: its newest migration is not recorded as applied.
      const db = bank.running.bank.db;
      const [newest] = await db.query<{ id: number; hash: string; created_at: string }>(
        "SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1",
      );
      await db.query("DELETE FROM drizzle.__drizzle_migrations WHERE id = $1", [newest.id]);
      const unready = await call(bank.url, "GET", "/readyz");
      expect(unready.status).toBe(503);
      expect(unready.json).toEqual({ status: "unavailable", reason: "migrations not applied" });
      expect((await call(bank.url, "GET", "/livez")).status).toBe(200);
      await db.query("INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES ($1, $2, $3)", [
        newest.id,
        newest.hash,
        newest.created_at,
      ]);
      expect((await call(bank.url, "GET", "/readyz")).status).toBe(200);
    } finally {
      await bank.close();
    }
  });
});

describe("SIGTERM", () => {
  const SANDBOX_KEY = "sbx_sigterm_key_0123456789";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bank-sigterm-"));
  let child: ChildProcess | undefined;
  let receiver: Receiver | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("turns unready, finishes the request in flight, gives the outbox's leases back and exits 0", {
    timeout: 180_000,
  }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The bank's own clock: "due" below is judged against the database's now(), and a sandbox
    // clock set ahead for a whole run (BANK_SANDBOX_CLOCK_START_SECONDS) would date the handed-back
    // leases days later.
    const { BANK_SANDBOX_CLOCK_START_SECONDS: _ahead, ...inherited } = process.env;
    child = spawn(process.execPath, await bankNodeArgs(ROOT), {
      cwd: ROOT,
      env: {
        ...inherited,
        BANK_PORT: String(port),
        BANK_DATA_DIR: dataDir,
        BANK_SANDBOX_KEY: SANDBOX_KEY,
        BANK_DEMO: "",
        // Long enough for this test to see readiness fail while the listener still answers.
        BANK_DRAIN_DELAY_MS: "4000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (d) => {
      output += d;
    });
    child.stderr?.on("data", (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((r) => child?.once("exit", (code) => r(code)));
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 90_000);

    const bank = { url, sandboxKey: SANDBOX_KEY };
    const c = await newCustomer(bank, "Sigterm Co");
    const from = await c.account("SEN", 100);
    const to = await c.account("SEN", 0);
    // A receiver that holds every notification: its delivery is in flight, its row leased.
    receiver = await startReceiver({ delayMs: 120_000 });
    await c.api("POST", "/v2/webhooks/register", { body: { AccountNumber: to, WebHookUrl: receiver.url } });

    // The request in flight: its headers are read (the server answered 100 Continue), its body not yet.
    const body = JSON.stringify(transferBody(from, to, 7.5));
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += d;
    });
    socket.write(
      `POST /v2/account/transfersen HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `${BANK_HEADERS.subscriptionKey}: ${c.key}\r\nAuthorization: ${c.token}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await waitFor(() => answer.includes("100 Continue"), 30_000);
    socket.write(body.slice(0, 10));

    // A deposit to `to` makes a notification the receiver holds.
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: to, amount: 1 });
    await receiver.waitFor((r) => r.length >= 1, 30_000);

    child.kill("SIGTERM");
    const unready = await waitFor(async () => {
      const r = await fetch(`${url}/readyz`);
      return r.status === 503 ? r.json() : undefined;
    }, 30_000);
    expect(unready).toEqual({ status: "unavailable", reason: "stopping" });
    expect((await fetch(`${url}/livez`)).status).toBe(200);

    socket.write(body.slice(10));
    await waitFor(() => /\r\n\r\n\{.*\}$/s.test(answer), 60_000);
    const final = answer.slice(answer.lastIndexOf("HTTP/1.1 "));
    expect(final).toMatch(/^HTTP\/1\.1 200 /);
    expect(final).toMatch(/connection: close/i);
    expect(JSON.parse(final.slice(final.indexOf("\r\n\r\n") + 4)).ERROR).toEqual([]);
    socket.destroy();

    expect(await exited, output).toBe(0);
    expect(output).toMatch(/"msg":"stopped"/);

    // The transfer was made, and the held notification is free for the next instance at once.
    const db = await openBankDb({ dataDir });
    try {
      const [acct] = await db.query<{ available_cents: number }>(
        "SELECT available_cents FROM accounts WHERE number = $1",
        [to],
      );
      expect(acct.available_cents).toBe(850);
      const rows = await db.query<{ state: string; leased: boolean; due: boolean }>(
        "SELECT state, leased, next_attempt_at <= now() AS due FROM outbox WHERE target = $1",
        [receiver.url],
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r).toEqual({ state: "pending", leased: false, due: true });
    } finally {
      await db.close();
    }
  });
});
