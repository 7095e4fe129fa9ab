// POST /v2/payment/backup honours Idempotency-Key exactly as POST /v2/payment does, over HTTP
// against the real bank: the same key and body replays the first answer and logs (and later
// holds) once; the same key with another body is a 400 naming Idempotency-Key; the key is shared
// with POST /v2/payment, so a wire logged during an outage and retried on the primary path after
// it is still one wire; keys are kept as long as for /v2/payment.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeIdempotencyKeys } from "../../bank/ledger/housekeeping.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import {
  balanceOf,
  call,
  newCustomer,
  sandbox,
  startTestBank,
  type TestBank,
  type TestCustomer,
  wireBody,
} from "../helpers/bank.ts";

const keyed = (key: string) => ({ [BANK_HEADERS.idempotencyKey]: key });

describe("Idempotency-Key on POST /v2/payment/backup", () => {
  let bank: TestBank;
  beforeAll(async () => {
    bank = await startTestBank();
  });
  afterAll(() => bank?.close());

  const logEntries = async (customerId: number) =>
    (
      await bank.running.bank.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM payment_backup_log WHERE customer_id = $1",
        [customerId],
      )
    )[0].n;
  const wiresOf = async (c: TestCustomer, account: string) =>
    (
      await c.api("GET", "/v2/payment", {
        query: {
          account_number: account,
          begin_date: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
        },
      })
    ).json as { payment_id: string; payment_status: string; amount: number }[];

  it("logs once for the same key and body during an outage, replays the first answer, and holds once when the system is back", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1_000);
    const key = randomUUID();
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
    try {
      const first = await c.api("POST", "/v2/payment/backup", {
        body: wireBody(acct, 250),
        headers: keyed(key),
      });
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ payment_status: "Pre-Approval", Errors: [] });
      const again = await c.api("POST", "/v2/payment/backup", {
        body: wireBody(acct, 250),
        headers: keyed(key),
      });
      expect(again.status).toBe(200);
      expect(again.json).toEqual(first.json);
      // The same request in another key order and name case is the same request.
      const { amount, ...rest } = wireBody(acct, 250);
      const reordered = await c.api("POST", "/v2/payment/backup", {
        body: { AMOUNT: amount, ...rest },
        headers: keyed(key),
      });
      expect(reordered.json).toEqual(first.json);

      const other = await c.api("POST", "/v2/payment/backup", {
        body: wireBody(acct, 251),
        headers: keyed(key),
      });
      expect(other.status).toBe(400);
      expect(other.json.errors[0].field).toBe(BANK_HEADERS.idempotencyKey);
      const malformed = await c.api("POST", "/v2/payment/backup", {
        body: wireBody(acct, 250),
        headers: keyed("not-a-guid"),
      });
      expect(malformed.status).toBe(400);
      expect(malformed.json.errors[0].field).toBe(BANK_HEADERS.idempotencyKey);

      expect(await logEntries(c.customerId)).toBe(1);
      expect((await wiresOf(c, acct)).map((p) => p.payment_id)).toEqual([first.json.payment_id]);
    } finally {
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
    }
    const wires = await wiresOf(c, acct);
    expect(wires.map((p) => [p.payment_status, p.amount])).toEqual([["In-Progress", 250]]);
    expect(await balanceOf(c, acct)).toMatchObject({ AVAILBAL: 750, TOTALHOLDS: 250 });

    // The primary call with the same key, once the system is back, is the same wire, not a second.
    const primary = await c.api("POST", "/v2/payment", { body: wireBody(acct, 250), headers: keyed(key) });
    expect(primary.status).toBe(200);
    expect(primary.json.payment_id).toBe(wires[0].payment_id);
    const backupUp = await c.api("POST", "/v2/payment/backup", {
      body: wireBody(acct, 250),
      headers: keyed(key),
    });
    expect(backupUp.json.payment_id).toBe(wires[0].payment_id);
    const conflicting = await c.api("POST", "/v2/payment", { body: wireBody(acct, 9), headers: keyed(key) });
    expect(conflicting.status).toBe(400);
    expect(conflicting.json.errors[0].field).toBe(BANK_HEADERS.idempotencyKey);
    expect(await wiresOf(c, acct)).toHaveLength(1);
    expect(await balanceOf(c, acct)).toMatchObject({ AVAILBAL: 750, TOTALHOLDS: 250 });
  });

  it("sends once when the backup call and then the primary call carry one key while the system is up", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 100);
    const key = randomUUID();
    const viaBackup = await c.api("POST", "/v2/payment/backup", {
      body: wireBody(acct, 40),
      headers: keyed(key),
    });
    expect(viaBackup.json).toMatchObject({ payment_status: "In-Progress", Errors: [] });
    const viaPrimary = await c.api("POST", "/v2/payment", { body: wireBody(acct, 40), headers: keyed(key) });
    expect(viaPrimary.json).toEqual(viaBackup.json);
    const other = await c.api("POST", "/v2/payment/backup", {
      body: wireBody(acct, 41),
      headers: keyed(key),
    });
    expect(other.status).toBe(400);
    expect(other.json.errors[0].field).toBe(BANK_HEADERS.idempotencyKey);
    expect(await wiresOf(c, acct)).toHaveLength(1);
    expect(await balanceOf(c, acct)).toMatchObject({ AVAILBAL: 60, TOTALHOLDS: 40 });
    expect(await logEntries(c.customerId)).toBe(0);
  });

  it("keeps a backup call's key as long as a payment's: 47 hours on it still replays", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 500);
    const key = randomUUID();
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
    let first: { payment_id: string };
    try {
      first = (await c.api("POST", "/v2/payment/backup", { body: wireBody(acct, 5), headers: keyed(key) }))
        .json;
    } finally {
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
    }
    await sandbox(bank, "POST", "/sandbox/clock", { advanceSeconds: 47 * 3600 });
    await purgeIdempotencyKeys(bank.running.bank);
    const t = await call(bank.url, "GET", "/v2/access/token", {
      headers: { [BANK_HEADERS.subscriptionKey]: c.key },
    });
    const again = await call(bank.url, "POST", "/v2/payment/backup", {
      body: wireBody(acct, 5),
      headers: {
        ...keyed(key),
        [BANK_HEADERS.subscriptionKey]: c.key,
        Authorization: t.headers.get("authorization") as string,
      },
    });
    expect(again.status).toBe(200);
    expect(again.json.payment_id).toBe(first.payment_id);
    expect(await logEntries(c.customerId)).toBe(1);
  });
});
