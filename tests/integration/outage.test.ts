import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import {
  type CallOptions,
  call,
  newCustomer,
  sandbox,
  startTestBank,
  type TestBank,
  type TestCustomer,
} from "../helpers/bank.ts";

const wire = (account: string, amount: number) => ({
  originator_account_number: account,
  amount,
  beneficiary_name: "KITT M",
  beneficiary_account_number: "987654321",
  beneficiary_address1: "1 MAIN ST",
});

async function balance(api: TestCustomer["api"], account: string) {
  const r = await api("GET", "/v2/account/balance", { query: { accountNumber: account } });
  const rec = r.json.ResponseData[0];
  return { available: rec.AVAILBAL, current: rec.CURRBAL, holds: rec.TOTALHOLDS };
}

async function status(api: TestCustomer["api"], account: string, id: string) {
  const r = await api("GET", "/v2/payment", { query: { account_number: account, payment_id: id } });
  return r.json[0].payment_status as string;
}

describe("wire-system outage", () => {
  let bank: TestBank;
  beforeAll(async () => {
    bank = await startTestBank();
  });
  afterAll(() => bank?.close());

  it("answers 503 on POST and PUT /v2/payment, logs backup calls, and replays them in order once it is back", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1_000);
    const inc = await sandbox(bank, "POST", "/sandbox/incoming-wires", { accountNumber: acct, amount: 50 });
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });

    const post = await c.api("POST", "/v2/payment", { body: wire(acct, 100) });
    expect(post.status).toBe(503);
    expect(post.json).toEqual({ statusCode: 503, message: expect.any(String) });
    const put = await c.api("PUT", "/v2/payment", {
      query: {
        account_number: acct,
        payment_id: inc.payment_id,
        action: "approve",
        timestamp: inc.payment_timestamp,
      },
    });
    expect(put.status).toBe(503);

    // Backup calls validate like the real ones and write nothing when malformed.
    const bad = await c.api("POST", "/v2/payment/backup", {
      body: { ...wire(acct, 100), beneficiary_name: "" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("beneficiary_name");
    const stale = await c.api("PUT", "/v2/payment/backup", {
      query: {
        account_number: acct,
        payment_id: inc.payment_id,
        action: "approve",
        timestamp: "2020-01-01 00:00:00.000",
      },
    });
    expect(stale.status).toBe(400);
    expect(stale.json.errors[0].field).toBe("timestamp");

    const logged1 = await c.api("POST", "/v2/payment/backup", { body: wire(acct, 100) });
    expect(logged1.status).toBe(200);
    expect(logged1.json).toMatchObject({ payment_status: "Pre-Approval", Errors: [] });
    expect(logged1.json.payment_id.length).toBeLessThanOrEqual(15);
    const logged2 = await c.api("POST", "/v2/payment/backup", { body: wire(acct, 950) });
    const action = await c.api("PUT", "/v2/payment/backup", {
      query: {
        account_number: acct,
        payment_id: inc.payment_id,
        action: "approve",
        timestamp: inc.payment_timestamp,
      },
    });
    expect(action.status).toBe(200);
    expect(action.json).toMatchObject({ payment_id: inc.payment_id, payment_status: "Pre-Approval" });
    // Nothing has moved yet: no hold, nothing settles while the wire system is down.
    expect(await balance(c.api, acct)).toEqual({ available: 1000, current: 1000, holds: 0 });
    expect((await sandbox(bank, "POST", "/sandbox/settle", {})).settled).toBe(0);
    expect(await status(c.api, acct, logged1.json.payment_id)).toBe("Pre-Approval");

    const up = await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
    expect(up).toMatchObject({ status: "up", replayed: 3, pending: 0 });
    // In order: the first wire is held; the second no longer fits and is canceled; the approval applies.
    expect(await status(c.api, acct, logged1.json.payment_id)).toBe("In-Progress");
    expect(await status(c.api, acct, logged2.json.payment_id)).toBe("Canceled");
    expect(await status(c.api, acct, inc.payment_id)).toBe("In-Progress");
    expect(await balance(c.api, acct)).toEqual({ available: 900, current: 1000, holds: 100 });

    // Coming up again replays nothing twice.
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
    expect((await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" })).replayed).toBe(0);
    expect(await balance(c.api, acct)).toEqual({ available: 900, current: 1000, holds: 100 });
    expect((await c.api("POST", "/v2/payment", { body: wire(acct, 1) })).status).toBe(200);
  });

  it("sends a backup wire and applies a backup action at once while the wire system is up", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 100);
    const r = await c.api("POST", "/v2/payment/backup", { body: wire(acct, 40) });
    expect(r.json.payment_status).toBe("In-Progress");
    expect(await balance(c.api, acct)).toMatchObject({ available: 60, holds: 40 });
    const inc = await sandbox(bank, "POST", "/sandbox/incoming-wires", { accountNumber: acct, amount: 5 });
    const a = await c.api("PUT", "/v2/payment/backup", {
      query: {
        account_number: acct,
        payment_id: inc.payment_id,
        action: "cancel",
        timestamp: inc.payment_timestamp,
      },
    });
    expect(a.json).toMatchObject({ payment_id: inc.payment_id, payment_status: "Canceled", Errors: [] });
  });
});

describe("wire-system outage across restarts", () => {
  it("replays entries logged before a restart exactly once, when the system comes back and at start", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bank-outage-"));
    let bank = await startTestBank({ dataDir });
    try {
      const c = await newCustomer(bank);
      const acct = await c.account("DDA", 1_000);
      const inc = await sandbox(bank, "POST", "/sandbox/incoming-wires", { accountNumber: acct, amount: 70 });
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
      const w1 = (await c.api("POST", "/v2/payment/backup", { body: wire(acct, 200) })).json;
      await c.api("PUT", "/v2/payment/backup", {
        query: {
          account_number: acct,
          payment_id: inc.payment_id,
          action: "cancel",
          timestamp: inc.payment_timestamp,
        },
      });
      await bank.close();

      // The same key and token keep working on the restarted bank (same database).
      const as =
        (b: TestBank) =>
        (method: string, p: string, o: CallOptions = {}) =>
          call(b.url, method, p, {
            ...o,
            headers: { [BANK_HEADERS.subscriptionKey]: c.key, Authorization: c.token },
          });

      bank = await startTestBank({ dataDir });
      let api = as(bank);
      expect((await api("POST", "/v2/payment", { body: wire(acct, 1) })).status).toBe(503);
      expect(await status(api, acct, w1.payment_id)).toBe("Pre-Approval");
      const w2 = (await api("POST", "/v2/payment/backup", { body: wire(acct, 300) })).json;
      const up = await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
      expect(up).toMatchObject({ replayed: 3, pending: 0 });
      expect(await status(api, acct, w1.payment_id)).toBe("In-Progress");
      expect(await status(api, acct, w2.payment_id)).toBe("In-Progress");
      expect(await status(api, acct, inc.payment_id)).toBe("Canceled");
      expect(await balance(api, acct)).toEqual({ available: 500, current: 1000, holds: 500 });

      // An outage that ends while the bank is stopped: the log replays when the bank starts.
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
      const w3 = (await api("POST", "/v2/payment/backup", { body: wire(acct, 50) })).json;
      await bank.running.bank.db.query("UPDATE bank_settings SET value = 'up' WHERE key = 'wire_system'");
      await bank.close();
      bank = await startTestBank({ dataDir });
      api = as(bank);
      expect(await status(api, acct, w3.payment_id)).toBe("In-Progress");
      expect(await balance(api, acct)).toEqual({ available: 450, current: 1000, holds: 550 });
      const log = await bank.running.bank.db.query<{ n: number; pending: number }>(
        "SELECT count(*)::int AS n, count(*) FILTER (WHERE replayed_at IS NULL)::int AS pending FROM payment_backup_log",
      );
      expect(log[0]).toEqual({ n: 4, pending: 0 });

      await bank.close();
      bank = await startTestBank({ dataDir });
      expect(await balance(as(bank), acct)).toEqual({ available: 450, current: 1000, holds: 550 });
    } finally {
      await bank.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
