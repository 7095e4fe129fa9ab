// When the bank cannot be reached: each log line names the request it belongs to (a read that
// several requests share, and a token renewal they wait on, name every one of them, never the
// request that happened to start the work before), and what a person reads says plainly that
// the bank cannot be reached, without the dashboard's internal address or a system error code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BankClient } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { createLogger, createLogRoot } from "../../lib/server/log.ts";
import { inScope, scopeFor } from "../../lib/server/trace.ts";
import { sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";
import { openTestDashboardDb, type TestDashboardDb } from "../helpers/routes.ts";

type Line = Record<string, unknown>;

/** A logger whose lines this test reads (the process's own writes only errors under the test runner). */
function capturedLog(name: string) {
  const lines: Line[] = [];
  const root = createLogRoot({ write: (l: string) => void lines.push(JSON.parse(l) as Line) });
  return { log: createLogger(name, { root, quiet: false }), lines };
}

let bank: TestBank;
let dashboard: TestDashboardDb;
let db: DashboardDb;
let account: string;
let readKey: string;
let renewKey: string;

beforeAll(async () => {
  bank = await startTestBank();
  dashboard = await openTestDashboardDb("bank-down-logs");
  db = dashboard.db;
  const reader = await sandboxCustomer(bank, "Down Reader Co");
  readKey = reader.subscriptionKey;
  account = await reader.account("SEN", 100);
  renewKey = (await sandboxCustomer(bank, "Down Renewer Co")).subscriptionKey;
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  await bank?.close();
});

describe("the bank down", () => {
  it("logs a shared read under the requests waiting on it, and tells the person the bank cannot be reached", async () => {
    const { log, lines } = capturedLog("bank-client");
    const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: readKey });
    const client = new BankClient({
      bankUrl: bank.url,
      subscriptionKey: readKey,
      tokens,
      readRetries: 0,
      log,
    });
    // A token first, while the bank is up; then the bank goes away.
    expect((await client.call("balance", { query: { accountNumber: account } })).ok).toBe(true);
    await bank.close();

    const read = (id: string) =>
      inScope(scopeFor(undefined, id), () => client.call("balance", { query: { accountNumber: account } }));
    // A's read goes out; B and C arrive while it is on the wire and share the next one.
    const results = await Promise.all([read("req-A"), read("req-B"), read("req-C")]);

    for (const r of results) {
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.error.kind).toBe("unavailable");
      expect(r.error.message).toMatch(/^The bank cannot be reached/);
      expect(r.error.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|connect /);
    }
    const unreachable = lines.filter((l) => l.msg === "bank unreachable");
    expect(unreachable).toHaveLength(2);
    // A's own read, under A; the shared one under B and C, not under A (answered before it began).
    expect(unreachable.filter((l) => l.requestId === "req-A")).toHaveLength(1);
    const shared = unreachable.find((l) => l.requestId !== "req-A");
    expect(shared?.requestId).toBeUndefined();
    expect(shared?.waitingRequests).toEqual(["req-B", "req-C"]);
    // The reason stays in the log for the operator.
    expect(String(shared?.reason)).toMatch(/ECONNREFUSED/);
  });

  it("logs a token renewal that fails under every request waiting on it", async () => {
    const { log, lines } = capturedLog("bank-token");
    // Nothing listens here any more (the bank closed in the test above, or is closed now).
    await bank.close().catch(() => undefined);
    const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: renewKey, log });
    const get = (id: string) =>
      inScope(scopeFor(undefined, id), () =>
        tokens.getToken().then(
          () => "token",
          (e: Error) => e.message,
        ),
      );
    const answers = await Promise.all([get("req-D"), get("req-E")]);
    expect(answers).toEqual([
      "The bank cannot be reached right now.",
      "The bank cannot be reached right now.",
    ]);
    expect(tokens.requestsSent).toBe(1);
    const failed = lines.filter((l) => l.msg === "token request failed");
    expect(failed).toHaveLength(1);
    expect(failed[0].requestId).toBeUndefined();
    expect(failed[0].waitingRequests).toEqual(["req-D", "req-E"]);
  });
});
