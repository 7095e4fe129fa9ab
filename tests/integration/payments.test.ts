import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessDayFormatter, DEFAULT_TIME_ZONE } from "../../lib/bank-api/dates.ts";
import type { FieldError } from "../../lib/bank-api/errors.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import type { Transaction } from "../../lib/bank-api/history.ts";
import type { PaymentRecord } from "../../lib/bank-api/payments.ts";
import { parseXmlResponse } from "../../lib/bank-api/xml.ts";
import {
  type CallOptions,
  call,
  newCustomer,
  sandbox,
  startTestBank,
  type TestBank,
  type TestCustomer,
  wireBody,
} from "../helpers/bank.ts";

let bank: TestBank;
beforeAll(async () => {
  bank = await startTestBank();
});
afterAll(() => bank?.close());

const wire = (account: string, amount: number, extra: Record<string, unknown> = {}) =>
  wireBody(account, amount, { originator_to_beneficiary_info: "INVOICE 4471", ...extra });

async function balance(c: TestCustomer, account: string) {
  const r = await c.api("GET", "/v2/account/balance", { query: { accountNumber: account } });
  const rec = r.json.ResponseData[0];
  return { available: rec.AVAILBAL, current: rec.CURRBAL, holds: rec.TOTALHOLDS };
}

async function history(c: TestCustomer, account: string) {
  const r = await c.api("GET", "/v2/account/history", { query: { accountNumber: account } });
  return r.json.ResponseData[0].TRANSACTION as Transaction[];
}

async function payment(c: TestCustomer, account: string, id: string) {
  const r = await c.api("GET", "/v2/payment", { query: { account_number: account, payment_id: id } });
  expect(r.status).toBe(200);
  return r.json[0];
}

/** The bank's business date (its default time zone), as the tests' dates must be. */
const today = () => businessDayFormatter(DEFAULT_TIME_ZONE)(new Date());

describe("POST /v2/payment (outgoing wire)", () => {
  it("holds the funds at once, answers In-Progress, and settles to Complete with the debit in history", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 10_000);
    const r = await c.api("POST", "/v2/payment", { body: wire(acct, 4692.6) });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ payment_status: "In-Progress", Errors: [] });
    expect(r.json.payment_id.length).toBeLessThanOrEqual(15);
    expect(r.json.payment_timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);

    expect(await balance(c, acct)).toEqual({ available: 5307.4, current: 10_000, holds: 4692.6 });
    expect((await history(c, acct)).filter((t) => t.PaymentId)).toHaveLength(0);

    const settled = await sandbox(bank, "POST", "/sandbox/settle", {});
    expect(settled.settled).toBeGreaterThanOrEqual(1);
    expect(await balance(c, acct)).toEqual({ available: 5307.4, current: 5307.4, holds: 0 });

    const p = await payment(c, acct, r.json.payment_id);
    expect(p.payment_status).toBe("Complete");
    expect(p.time_stamp > r.json.payment_timestamp).toBe(true);
    expect(p.imad).toMatch(/^\d{8}[A-Z0-9]{8}\d{6}$/);
    expect(p.omad.length).toBeGreaterThan(20);
    expect(p.direction).toBe("Outgoing");
    expect(p.completion_date).not.toBe("");

    const debit = (await history(c, acct)).find((t) => t.PaymentId === r.json.payment_id);
    expect(debit).toMatchObject({
      TRANCD: "9095",
      TRANAMT: 4692.6,
      TRANDESC: r.json.payment_id,
      TRANDESCS: "BENE:KITT M",
      MEMOPSTIND: "M",
      DRCRFLAG: "D",
      CURRAVAILBAL: 5307.4,
    });
  });

  it("settles on the timer after the settlement delay", async () => {
    const own = await startTestBank({ env: { BANK_SETTLE_AFTER_SECONDS: "1" } });
    try {
      const c = await newCustomer(own);
      const acct = await c.account("DDA", 500);
      const r = await c.api("POST", "/v2/payment", { body: wire(acct, 100) });
      expect(r.json.payment_status).toBe("In-Progress");
      let status = "";
      for (let i = 0; i < 40 && status !== "Complete"; i++) {
        await new Promise((res) => setTimeout(res, 250));
        status = (await payment(c, acct, r.json.payment_id)).payment_status;
      }
      expect(status).toBe("Complete");
    } finally {
      await own.close();
    }
  });

  it("refuses insufficient available funds as a business rejection and holds nothing", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 100);
    const r = await c.api("POST", "/v2/payment", { body: wire(acct, 100.01) });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ payment_id: "", payment_status: "", payment_timestamp: "" });
    expect(r.json.Errors[0]).toMatchObject({ MESSAGEID: "E0201", FIELDNAME: "amount" });
    expect(await balance(c, acct)).toEqual({ available: 100, current: 100, holds: 0 });
  });

  it("refuses an originator account that is not the customer's", async () => {
    const a = await newCustomer(bank, "Owner Co");
    const b = await newCustomer(bank, "Other Co");
    const acct = await a.account("DDA", 1000);
    const r = await b.api("POST", "/v2/payment", { body: wire(acct, 10) });
    expect(r.status).toBe(200);
    expect(r.json.Errors[0]).toMatchObject({ MESSAGEID: "E0101", FIELDNAME: "originator_account_number" });
    expect(await balance(a, acct)).toEqual({ available: 1000, current: 1000, holds: 0 });
  });

  it("answers the first response and holds once for a repeated Idempotency-Key; another body is a 400", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1000);
    const headers = { [BANK_HEADERS.idempotencyKey]: "5b1e4f6a-4a5c-4c4f-9f59-1f1d2d3e4f50" };
    const first = await c.api("POST", "/v2/payment", { body: wire(acct, 300), headers });
    const again = await c.api("POST", "/v2/payment", { body: wire(acct, 300), headers });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(await balance(c, acct)).toMatchObject({ available: 700, holds: 300 });
    const other = await c.api("POST", "/v2/payment", { body: wire(acct, 301), headers });
    expect(other.status).toBe(400);
    expect(other.json.errors[0].field).toBe(BANK_HEADERS.idempotencyKey);
    expect(await balance(c, acct)).toMatchObject({ available: 700, holds: 300 });
    const list = await c.api("GET", "/v2/payment", { query: { account_number: acct, begin_date: today() } });
    expect(list.json).toHaveLength(1);
  });

  it.each([
    [{ beneficiary_name: undefined }, "beneficiary_name"],
    [{ beneficiary_account_number: "" }, "beneficiary_account_number"],
    [{ beneficiary_address1: undefined }, "beneficiary_address1"],
    [{ beneficiary_name: "X".repeat(36) }, "beneficiary_name"],
    [{ receiving_bank_routing_id: "011000016" }, "receiving_bank_routing_id"],
    [{ receiving_bank_routing_id: "1234" }, "receiving_bank_routing_id"],
    [
      { beneficiary_bank_type: "ABA", beneficiary_bank_routing_id: "12345678" },
      "beneficiary_bank_routing_id",
    ],
    [{ beneficiary_bank_type: "SWIFT", beneficiary_bank_routing_id: "DEUT1" }, "beneficiary_bank_routing_id"],
    [{ intermediary_bank_type: "WIRE" }, "intermediary_bank_type"],
    [{ amount: 10.001 }, "amount"],
    [{ amount: -5 }, "amount"],
    [{ amount: "ten" }, "amount"],
    [{ originator_to_beneficiary_info: "x".repeat(141) }, "originator_to_beneficiary_info"],
    [{ originator_account_number: "1".repeat(21) }, "originator_account_number"],
    [{ beneficiary_name: "A\u0000B" }, "beneficiary_name"],
    [{ originator_to_beneficiary_info: "line\u0007bell" }, "originator_to_beneficiary_info"],
  ])("rejects %j with a 400 naming %s and writes nothing", async (patch, field) => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1000);
    const r = await c.api("POST", "/v2/payment", { body: wire(acct, 10, patch) });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: FieldError) => e.field)).toContain(field);
    expect(await balance(c, acct)).toMatchObject({ available: 1000, holds: 0 });
  });

  it("accepts SWIFT and ABA beneficiary banks and shows them in the record", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1000);
    const r = await c.api("POST", "/v2/payment", {
      body: wire(acct, 10, {
        beneficiary_bank_type: "swift",
        beneficiary_bank_routing_id: "DEUTDEFF500",
        intermediary_bank_type: "ABA",
        intermediary_bank_routing_id: "011000015",
      }),
    });
    expect(r.json.payment_status).toBe("In-Progress");
    const p = await payment(c, acct, r.json.payment_id);
    expect(p).toMatchObject({
      beneficiary_bank_type: "SWIFT",
      beneficiary_bank_swift_bic: "DEUTDEFF500",
      beneficiary_bank_country_code: "DE",
      intermediary_bank_type: "ABA",
      intermediary_bank_id: "011000015",
      debit_account_id: acct,
      credit_account_id: "987654321",
      originator_id: acct,
      beneficiary_name: "KITT M",
      fedwire_type: "10",
      fedwire_sub_type: "00",
      source_indicator: "O",
    });
  });

  it("settles a wire to another account of this bank as an Internal book transfer, seen from both accounts", async () => {
    const a = await newCustomer(bank, "Payer Co");
    const b = await newCustomer(bank, "Payee Co");
    const from = await a.account("DDA", 1_000);
    const to = await b.account("DDA", 0);
    const r = await a.api("POST", "/v2/payment", {
      body: wire(from, 250, { receiving_bank_routing_id: "091999997", beneficiary_account_number: to }),
    });
    expect(r.json.payment_status).toBe("In-Progress");
    expect((await payment(a, from, r.json.payment_id)).direction).toBe("Internal");
    const seen = await b.api("GET", "/v2/payment", { query: { account_number: to, begin_date: today() } });
    expect(seen.json.map((p: PaymentRecord) => [p.payment_id, p.direction])).toEqual([
      [r.json.payment_id, "Internal"],
    ]);

    await sandbox(bank, "POST", "/sandbox/settle", {});
    expect(await balance(a, from)).toEqual({ available: 750, current: 750, holds: 0 });
    expect(await balance(b, to)).toEqual({ available: 250, current: 250, holds: 0 });
    const credit = (await history(b, to)).find((t) => t.PaymentId === r.json.payment_id);
    expect(credit).toMatchObject({ DRCRFLAG: "C", TRANAMT: 250 });
    const sums = await b.api("GET", "/v2/account/wiresummary", {
      query: { accountNumber: to, date: today(), sourceIndicator: "I" },
    });
    expect(sums.json.RecordCount).toBe(1);
    expect(sums.json.EwireSummaries[0].UniqueId).toBe(credit?.UniqueId);
  });

  it("takes an XML body and answers in XML", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1000);
    const xml = `<?xml version="1.0"?><PaymentRequest><originator_account_number>${acct}</originator_account_number><amount>25.50</amount><beneficiary_name>ACME GMBH</beneficiary_name><beneficiary_account_number>DE89370400440532013000</beneficiary_account_number><beneficiary_address1>1 HAUPTSTRASSE</beneficiary_address1></PaymentRequest>`;
    const r = await c.api("POST", "/v2/payment", { xml });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/xml/);
    const body = parseXmlResponse(r.text) as Record<string, string>;
    expect(body.payment_status).toBe("In-Progress");
    expect(await balance(c, acct)).toMatchObject({ available: 974.5, holds: 25.5 });

    const list = await c.api("GET", "/v2/payment", {
      query: { account_number: acct, payment_id: body.payment_id },
      headers: { accept: "application/xml" },
    });
    expect(list.status).toBe(200);
    expect(list.text).toContain("<ArrayOfPayment><Payment>");
    const parsed = parseXmlResponse(list.text) as { Payment: Record<string, string> };
    expect(parsed.Payment.payment_id).toBe(body.payment_id);
    expect(parsed.Payment.beneficiary_name).toBe("ACME GMBH");
  });
});

describe("incoming wires and PUT /v2/payment", () => {
  async function incoming(account: string, amount = 250, extra: Record<string, unknown> = {}) {
    return sandbox(bank, "POST", "/sandbox/incoming-wires", {
      accountNumber: account,
      amount,
      originatorName: "GLOBEX CORP",
      ...extra,
    });
  }

  const act = (c: TestCustomer, account: string, id: string, action: string, timestamp: string) =>
    c.api("PUT", "/v2/payment", { query: { account_number: account, payment_id: id, action, timestamp } });

  it("arrives Pre-Approval; approve then settle credits the account with a linked history entry", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const w = await incoming(acct, 1234.56);
    expect(w.payment_status).toBe("Pre-Approval");
    const listed = await payment(c, acct, w.payment_id);
    expect(listed).toMatchObject({
      direction: "Incoming",
      source_indicator: "I",
      time_stamp: w.payment_timestamp,
    });

    const r = await act(c, acct, w.payment_id, "Approve", w.payment_timestamp);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ payment_id: w.payment_id, payment_status: "In-Progress" });
    expect(r.json.payment_timestamp > w.payment_timestamp).toBe(true);
    expect((await balance(c, acct)).available).toBe(0);

    await sandbox(bank, "POST", "/sandbox/settle", {});
    expect(await balance(c, acct)).toMatchObject({ available: 1234.56, current: 1234.56 });
    const p = await payment(c, acct, w.payment_id);
    expect(p.payment_status).toBe("Complete");
    const credit = (await history(c, acct)).find((t) => t.PaymentId === w.payment_id);
    expect(credit).toMatchObject({ DRCRFLAG: "C", TRANAMT: 1234.56, TRANDESC: w.payment_id });
  });

  it("refuses a second approval, a stale timestamp and another customer's payment", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const w = await incoming(acct);
    const ok = await act(c, acct, w.payment_id, "approve", w.payment_timestamp);
    expect(ok.status).toBe(200);
    const stale = await act(c, acct, w.payment_id, "cancel", w.payment_timestamp);
    expect(stale.status).toBe(400);
    expect(stale.json.errors.map((e: FieldError) => e.field)).toContain("timestamp");
    const second = await act(c, acct, w.payment_id, "approve", ok.json.payment_timestamp);
    expect(second.status).toBe(400);
    expect(second.json.errors.map((e: FieldError) => e.field)).toEqual(["action"]);

    const other = await newCustomer(bank, "Other Co");
    const theirs = await other.account("DDA", 0);
    const w2 = await incoming(acct);
    const foreign = await act(other, acct, w2.payment_id, "approve", w2.payment_timestamp);
    expect(foreign.status).toBe(200);
    expect(foreign.json.Errors[0]).toMatchObject({ FIELDNAME: "account_number" });
    const wrongAccount = await act(other, theirs, w2.payment_id, "approve", w2.payment_timestamp);
    expect(wrongAccount.json.Errors[0]).toMatchObject({ MESSAGEID: "E0401", FIELDNAME: "payment_id" });
    expect((await payment(c, acct, w2.payment_id)).payment_status).toBe("Pre-Approval");
  });

  it("cancels: Canceled with a cancel date and no credit", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const w = await incoming(acct);
    const r = await act(c, acct, w.payment_id, "CANCEL", w.payment_timestamp);
    expect(r.json.payment_status).toBe("Canceled");
    await sandbox(bank, "POST", "/sandbox/settle", {});
    const p = await payment(c, acct, w.payment_id);
    expect(p).toMatchObject({ payment_status: "Canceled", time_stamp: r.json.payment_timestamp });
    expect(p.cancel_date).not.toBe("");
    expect((await balance(c, acct)).available).toBe(0);
  });

  it("returns: Canceled plus a linked outgoing return wire, 02 the same day and 08 later", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const w = await incoming(acct, 75, { originatorAccountNumber: "55500011" });
    const r = await act(c, acct, w.payment_id, "Return", w.payment_timestamp);
    expect(r.json.payment_status).toBe("Canceled");
    const list = await c.api("GET", "/v2/payment", { query: { account_number: acct, begin_date: today() } });
    const ret = list.json.find((p: PaymentRecord) => p.payment_id !== w.payment_id);
    expect(ret).toMatchObject({
      direction: "Outgoing",
      fedwire_sub_type: "02",
      amount: 75,
      payment_status: "In-Progress",
      credit_account_id: "55500011",
      beneficiary_name: "GLOBEX CORP",
    });
    expect(ret.originator_to_beneficiary_info_line).toContain(w.payment_id);

    const later = await startTestBank();
    try {
      const c2 = await newCustomer(later);
      const acct2 = await c2.account("DDA", 0);
      const w2 = await sandbox(later, "POST", "/sandbox/incoming-wires", {
        accountNumber: acct2,
        amount: 10,
      });
      await sandbox(later, "POST", "/sandbox/clock", { advanceSeconds: 2 * 86400 });
      // Two days on, the first token has expired: the same key takes a new one.
      const t = await call(later.url, "GET", "/v2/access/token", {
        headers: { [BANK_HEADERS.subscriptionKey]: c2.key },
      });
      const token = t.headers.get("authorization") as string;
      const api = (method: string, p: string, o: CallOptions) =>
        call(later.url, method, p, {
          ...o,
          headers: { [BANK_HEADERS.subscriptionKey]: c2.key, Authorization: token },
        });
      const r2 = await api("PUT", "/v2/payment", {
        query: {
          account_number: acct2,
          payment_id: w2.payment_id,
          action: "return",
          timestamp: w2.payment_timestamp,
        },
      });
      expect(r2.json.payment_status).toBe("Canceled");
      const all = await api("GET", "/v2/payment", {
        query: {
          account_number: acct2,
          begin_date: new Date(Date.now() - 86400_000).toISOString().slice(0, 10),
          end_date: new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10),
        },
      });
      expect(all.json.find((p: PaymentRecord) => p.payment_id !== w2.payment_id).fedwire_sub_type).toBe("08");
    } finally {
      await later.close();
    }
  });

  it("rejects an unknown action word and a malformed timestamp with a 400", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const w = await incoming(acct);
    const bad = await act(c, acct, w.payment_id, "release", w.payment_timestamp);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("action");
    const badTs = await act(c, acct, w.payment_id, "approve", "2026-01-01T00:00:00Z");
    expect(badTs.status).toBe(400);
    expect(badTs.json.errors[0].field).toBe("timestamp");
    expect((await payment(c, acct, w.payment_id)).payment_status).toBe("Pre-Approval");
  });

  it("refuses actions on an outgoing wire", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 100);
    const r = await c.api("POST", "/v2/payment", { body: wire(acct, 10) });
    const x = await act(c, acct, r.json.payment_id, "cancel", r.json.payment_timestamp);
    expect(x.status).toBe(400);
    expect(x.json.errors[0].field).toBe("action");
  });
});

describe("balance notifications from wires", () => {
  it("queues a notification when an outgoing wire holds funds and when an incoming wire is credited", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 1_000);
    const reg = await c.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: acct, Emails: "treasury@example.com" },
    });
    expect(reg.status).toBe(200);
    const notifications = async () =>
      (
        await bank.running.bank.db.query<{ payload: { AvailableBalance: string; PreviousBalance: string } }>(
          "SELECT payload FROM outbox WHERE payload->>'AccountNumber' = $1 ORDER BY id",
          [acct],
        )
      ).map((r) => [r.payload.PreviousBalance, r.payload.AvailableBalance]);

    await c.api("POST", "/v2/payment", { body: wire(acct, 100) });
    expect(await notifications()).toEqual([["000100000", "000090000"]]);
    await sandbox(bank, "POST", "/sandbox/settle", {});
    // Settling moves the current balance only: the available balance already dropped.
    expect(await notifications()).toHaveLength(1);

    const w = await sandbox(bank, "POST", "/sandbox/incoming-wires", { accountNumber: acct, amount: 5 });
    await c.api("PUT", "/v2/payment", {
      query: {
        account_number: acct,
        payment_id: w.payment_id,
        action: "approve",
        timestamp: w.payment_timestamp,
      },
    });
    await sandbox(bank, "POST", "/sandbox/settle", {});
    expect(await notifications()).toEqual([
      ["000100000", "000090000"],
      ["000090000", "000090500"],
    ]);
  });
});

describe("GET /v2/payment", () => {
  it("returns every record field, pages, sorts and filters by date", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 10_000);
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++)
      ids.push((await c.api("POST", "/v2/payment", { body: wire(acct, i) })).json.payment_id);
    const all = await c.api("GET", "/v2/payment", { query: { account_number: acct, begin_date: today() } });
    expect(all.json.map((p: PaymentRecord) => p.payment_id)).toEqual(ids);
    const { PAYMENT_RECORD_FIELDS } = await import("../../lib/bank-api/payments.ts");
    for (const f of PAYMENT_RECORD_FIELDS) expect(typeof all.json[0][f], f).toBe("string");
    expect(all.json[0].amount).toBe(1);

    const desc = await c.api("GET", "/v2/payment", {
      query: { account_number: acct, begin_date: today(), sort_order: "desc", page_size: 2, page_number: 2 },
    });
    expect(desc.json.map((p: PaymentRecord) => p.payment_id)).toEqual([ids[2], ids[1]]);

    const past = await c.api("GET", "/v2/payment", {
      query: { account_number: acct, begin_date: "2020-01-01", end_date: "2020-01-31" },
    });
    expect(past.json).toEqual([]);
  });

  it.each([
    [{ begin_date: "2026-01-01", end_date: "2026-02-03" }, "end_date"],
    [{ begin_date: "2026-02-01", end_date: "2026-01-31" }, "end_date"],
    [{}, "begin_date"],
    [{ begin_date: "2026-02-30" }, "begin_date"],
    [{ begin_date: "2026-01-01", page_size: 0 }, "page_size"],
    [{ begin_date: "2026-01-01", page_number: "x" }, "page_number"],
    [{ begin_date: "2026-01-01", sort_order: "up" }, "sort_order"],
    [{ begin_date: "2026-01-01", payment_id: "P\u0000" }, "payment_id"],
  ])("answers 400 for %j naming %s", async (q, field) => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const r = await c.api("GET", "/v2/payment", { query: { account_number: acct, ...q } });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: FieldError) => e.field)).toContain(field);
  });

  it("compares RFC 3339 bounds with the moment each wire was entered", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 100);
    const r = await c.api("POST", "/v2/payment", { body: wire(acct, 1) });
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const since = await c.api("GET", "/v2/payment", { query: { account_number: acct, begin_date: hourAgo } });
    expect(since.json.map((p: PaymentRecord) => p.payment_id)).toEqual([r.json.payment_id]);
    const later = await c.api("GET", "/v2/payment", {
      query: {
        account_number: acct,
        begin_date: inAMinute,
        end_date: new Date(Date.now() + 120_000).toISOString(),
      },
    });
    expect(later.json).toEqual([]);
  });

  it("accepts a 32-day window and refuses another customer's account", async () => {
    const c = await newCustomer(bank);
    const acct = await c.account("DDA", 0);
    const ok = await c.api("GET", "/v2/payment", {
      query: { account_number: acct, begin_date: "2026-01-01", end_date: "2026-02-02" },
    });
    expect(ok.status).toBe(200);
    const other = await newCustomer(bank, "Other Co");
    const r = await other.api("GET", "/v2/payment", { query: { account_number: acct, begin_date: today() } });
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe("account_number");
  });
});
