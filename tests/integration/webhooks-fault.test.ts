// Nothing is lost when the receiver is down and the bank is killed: the outbox survives the
// process, and a restarted bank delivers every notification (at least once; the receiver drops
// repeats by webhook-id).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bankNodeArgs } from "../../scripts/bank-build.ts";
import { call, newCustomer, sandbox } from "../helpers/bank.ts";
import { freePort } from "../helpers/ports.ts";
import { type Receiver, startReceiver, waitFor } from "./webhooks-receivers.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const SANDBOX_KEY = "sbx_fault_test_key_0123456789";

interface BankProcess {
  child: ChildProcess;
  output: string[];
}

async function spawnBank(port: number, dataDir: string): Promise<BankProcess> {
  const child = spawn(process.execPath, await bankNodeArgs(ROOT), {
    cwd: ROOT,
    env: {
      ...process.env,
      BANK_PORT: String(port),
      BANK_DATA_DIR: dataDir,
      BANK_SANDBOX_KEY: SANDBOX_KEY,
      BANK_WEBHOOK_RETRY_BASE_MS: "200",
      BANK_DEMO: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (d) => output.push(String(d)));
  child.stderr?.on("data", (d) => output.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`bank exited: ${output.join("")}`);
    try {
      return (await fetch(`${url}/healthz`)).status === 200 ? true : undefined;
    } catch {
      return undefined;
    }
  }, 90_000);
  return { child, output };
}

async function kill9(p: BankProcess) {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once("exit", r));
  p.child.kill("SIGKILL");
  await exited;
}

const running: BankProcess[] = [];
let receiver: Receiver | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bank-fault-"));
afterAll(async () => {
  for (const p of running) await kill9(p);
  await receiver?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("webhook delivery across a crash", () => {
  it("delivers every notification after kill -9 and a restart, once the receiver is up", {
    timeout: 240_000,
  }, async () => {
    const port = await freePort();
    const receiverPort = await freePort();
    const bank = { url: `http://127.0.0.1:${port}`, sandboxKey: SANDBOX_KEY };
    running.push(await spawnBank(port, dataDir));

    const c = await newCustomer(bank, "Crash Test Co");
    const a = await c.account("SEN", 1000);
    const b = await c.account("SEN", 0);
    const hookUrl = `http://127.0.0.1:${receiverPort}/hooks/balance`;
    for (const acct of [a, b]) {
      const r = await c.api("POST", "/v2/webhooks/register", {
        body: { AccountNumber: acct, WebHookUrl: hookUrl },
      });
      expect(r.json.Errors).toEqual([]);
    }

    // Balance changes while the receiver is down; what each notification must say.
    const expected: string[] = [];
    const balances = { [a]: 100_000, [b]: 0 };
    const note = (acct: string, delta: number) => {
      const prev = balances[acct];
      balances[acct] = prev + delta;
      expected.push(
        JSON.stringify({
          AccountNumber: acct,
          AvailableBalance: String(balances[acct]).padStart(9, "0"),
          PreviousBalance: String(prev).padStart(9, "0"),
        }),
      );
    };
    for (let i = 1; i <= 4; i++) {
      await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: a, amount: i });
      note(a, i * 100);
    }
    for (let i = 1; i <= 3; i++) {
      const t = await c.api("POST", "/v2/account/transfersen", {
        body: { AccountNumberFrom: a, AccountNumberTo: b, Amount: 10 * i },
      });
      expect(t.json.ERROR).toEqual([]);
      note(a, -1000 * i);
      note(b, 1000 * i);
    }
    expect(expected).toHaveLength(10);

    // The bank has tried and failed at least once for some of them before it dies.
    await waitFor(async () => {
      const d = await sandbox<{ ok: boolean }[]>(bank, "GET", "/sandbox/webhook-deliveries");
      return d.length >= 3 ? true : undefined;
    }, 30_000);
    expect(
      (await sandbox<{ ok: boolean }[]>(bank, "GET", "/sandbox/webhook-deliveries")).every((x) => !x.ok),
    ).toBe(true);
    // A third account's receiver takes the request and never answers: its notifications are in
    // flight, claimed, when the bank dies.
    const hangPort = await freePort();
    const hung: string[] = [];
    const hanging = http.createServer((req) => hung.push(String(req.headers["webhook-id"])));
    await new Promise<void>((r) => hanging.listen(hangPort, "127.0.0.1", () => r()));
    const h = await c.account("SEN", 0);
    await c.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: h, WebHookUrl: `http://127.0.0.1:${hangPort}/hooks/balance` },
    });
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: h, amount: 7 });
    await sandbox(bank, "POST", "/sandbox/deposits", { accountNumber: h, amount: 8 });
    await waitFor(() => (hung.length >= 2 ? true : undefined), 30_000);

    await kill9(running[0]);
    hanging.closeAllConnections();
    await new Promise<void>((r) => hanging.close(() => r()));
    expect((await call(bank.url, "GET", "/healthz").catch(() => ({ status: 0 }))).status).toBe(0);

    running.push(await spawnBank(port, dataDir));
    receiver = await startReceiver({ port: receiverPort });
    const rec = receiver;
    const late = await startReceiver({ port: hangPort });
    try {
      // Claimed by the dead process: due again once the claim's lease (30 s) runs out.
      const got = await late.waitFor((r) => r.length >= 2, 90_000);
      expect(new Set(got.map((r) => String(r.headers["webhook-id"])))).toEqual(new Set(hung));
      expect(got.map((r) => JSON.parse(r.body).AvailableBalance).sort()).toEqual(["000000700", "000001500"]);
    } finally {
      await late.close();
    }
    await waitFor(
      () => (new Set(rec.received.map((r) => r.headers["webhook-id"])).size >= 10 ? true : undefined),
      120_000,
    );

    const byId = new Map<string, string>();
    for (const r of rec.received) {
      const id = String(r.headers["webhook-id"]);
      // A repeat carries the same body under the same id.
      if (byId.has(id)) expect(r.body).toBe(byId.get(id));
      byId.set(id, r.body);
    }
    expect([...byId.values()].sort()).toEqual([...expected].sort());

    const attempts = await waitFor(async () => {
      const d = await sandbox<{ messageId: string; ok: boolean; state: string }[]>(
        bank,
        "GET",
        "/sandbox/webhook-deliveries",
      );
      return d.filter((x) => x.ok).length >= 12 ? d : undefined;
    }, 30_000);
    expect(new Set(attempts.filter((x) => x.ok).map((x) => x.messageId))).toEqual(
      new Set([...byId.keys(), ...hung]),
    );
    expect(attempts.every((x) => x.state === "delivered")).toBe(true);
  });
});
