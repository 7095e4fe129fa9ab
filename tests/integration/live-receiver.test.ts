// The dashboard's receiver of the bank's balance notifications (live balances): the secret path,
// the signature and the body are all checked before a notification reaches the browsers, and a
// repeat of one notification (the bank retries) is passed on once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signWebhook } from "../../lib/bank-api/webhook-signature.ts";
import { BankClient } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { openDashboardDb } from "../../lib/db/client.ts";
import { type BalanceEvent, onBalance } from "../../lib/live/hub.ts";
import {
  ensureBankWebhooks,
  ensureBankWebhooksOnce,
  LIVE_DESCRIPTION,
  receiverToken,
  receiverUrl,
} from "../../lib/live/receiver.ts";
import { sandbox, startTestBank } from "../helpers/bank.ts";

// The guard package that keeps these modules out of browser bundles, as in the other route tests.
vi.mock("server-only", () => ({}));

const SECRET = `whsec_${Buffer.from("dashboard receiver test secret 32b").toString("base64")}`;
const saved = { ...process.env };

beforeAll(() => {
  process.env.BANK_WEBHOOK_SECRET = SECRET;
  process.env.NEXTAUTH_SECRET = "receiver-test-nextauth-secret-0123456789";
  process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";
});
afterAll(() => {
  process.env = { ...saved };
});

const body = (available: string) =>
  JSON.stringify({ AccountNumber: "5304554908", AvailableBalance: available, PreviousBalance: "000001000" });

async function post(token: string, text: string, opts: { id?: string; ts?: number; secret?: string } = {}) {
  const route = await import("../../app/api/bank-events/[token]/route.ts");
  const id = opts.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  const req = new Request(`http://127.0.0.1:3999/api/bank-events/${token}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(ts),
      "webhook-signature": signWebhook(opts.secret ?? SECRET, id, ts, text),
    },
    body: text,
  });
  return route.POST(req, { params: Promise.resolve({ token }) });
}

describe("live balance receiver", () => {
  it("is addressed by NEXTAUTH_URL and a token from NEXTAUTH_SECRET", () => {
    expect(receiverUrl()).toBe(`http://127.0.0.1:3999/api/bank-events/${receiverToken()}`);
    expect(receiverToken()).toMatch(/^[\w-]{32}$/);
  });

  it("passes a signed notification on once, refusing a wrong path, signature, age or body", async () => {
    const got: BalanceEvent[] = [];
    const off = onBalance((e) => got.push(e));
    try {
      expect((await post("not-the-token", body("000002000"))).status).toBe(404);
      expect((await post(receiverToken(), body("000002000"), { secret: "whsec_b3RoZXI=" })).status).toBe(401);
      const old = Math.floor(Date.now() / 1000) - 3600;
      expect((await post(receiverToken(), body("000002000"), { ts: old })).status).toBe(401);
      expect((await post(receiverToken(), '{"AccountNumber":"5304554908"}')).status).toBe(400);
      expect(got).toEqual([]);

      expect((await post(receiverToken(), body("000123456"), { id: "msg_once" })).status).toBe(204);
      expect((await post(receiverToken(), body("000123456"), { id: "msg_once" })).status).toBe(204);
      expect(got).toEqual([
        { id: "msg_once", accountNumber: "5304554908", availableCents: 123456, previousCents: 1000 },
      ]);
    } finally {
      off();
    }
  });
});

describe("live balance webhooks at the bank", () => {
  it("registers one webhook per account pointing here, only where missing, and checks again after five minutes", async () => {
    const bank = await startTestBank();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "live-hooks-"));
    const db = await openDashboardDb({ dataDir: path.join(dir, "db") });
    try {
      // Through the sandbox alone: the client below must be the first to ask for this key's token.
      const c = await sandbox<{ customerId: number; subscriptionKey: string }>(
        bank,
        "POST",
        "/sandbox/customers",
        {
          name: "Live Co",
        },
      );
      const open = async (type: "SEN" | "DDA") =>
        (
          await sandbox<{ accountNumber: string }>(bank, "POST", "/sandbox/accounts", {
            customerId: c.customerId,
            type,
          })
        ).accountNumber;
      const first = [await open("SEN"), await open("DDA")];
      const tokens = new TokenManager({ db, bankUrl: bank.url, subscriptionKey: c.subscriptionKey });
      const client = new BankClient({ bankUrl: bank.url, subscriptionKey: c.subscriptionKey, tokens });
      const hooks = async () => {
        const r = await client.call("listWebhooks");
        if (!r.ok) throw new Error(r.error.message);
        return r.data;
      };

      expect(await ensureBankWebhooks(client)).toBe(2);
      expect(await ensureBankWebhooks(client)).toBe(0);
      const list = await hooks();
      expect(list.map((h) => h.AccountNumber).sort()).toEqual([...first].sort());
      for (const h of list)
        expect(h).toMatchObject({ WebHookUrl: receiverUrl(), Description: LIVE_DESCRIPTION });

      // Once per five minutes per process: an account opened meanwhile is covered at the next check.
      const t0 = Date.now();
      expect(await ensureBankWebhooksOnce(client, t0)).toBe(0);
      const later = await open("SEN");
      expect(await ensureBankWebhooksOnce(client, t0 + 60_000)).toBe(0);
      expect(await ensureBankWebhooksOnce(client, t0 + 6 * 60_000)).toBe(1);
      expect((await hooks()).map((h) => h.AccountNumber)).toContain(later);
    } finally {
      await db.close();
      await bank.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
