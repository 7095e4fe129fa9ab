import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import {
  BACKENDS,
  balanceOf,
  newCustomer,
  sameTransferAtOnce,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
} from "../helpers/bank.ts";

describe.each(BACKENDS)("SEN transfers on $name", ({ postgres }) => {
  let bank: TestBank;
  let c: TestCustomer;
  let other: TestCustomer;
  let a: string;
  let b: string;
  let dda: string;
  let foreign: string;

  beforeAll(async () => {
    bank = await startTestBank({ postgres });
    c = await newCustomer(bank, "Transfer Co");
    other = await newCustomer(bank, "Counterparty Co");
    a = await c.account("SEN", 1000);
    b = await c.account("SEN", 0);
    dda = await c.account("DDA", 500);
    foreign = await other.account("SEN", 10);
  });
  afterAll(() => bank?.close());

  it("moves exact cents between two SEN accounts and records both sides", async () => {
    const r = await c.api("POST", "/v2/account/transfersen", {
      body: transferBody(a, b, 0.1, {
        SequenceNumber: 12345678,
        SerialNumber1: "INV-1",
        SerialNumber2: "PO-2",
        AccountFromDescription2: "Payout to reserve",
        AccountFromDescription3: "line three",
        AccountToDescription2: "From operations",
      }),
      headers: { [BANK_HEADERS.idempotencyKey]: "6f1c1f5e-8c8c-4a59-9a53-1d3c2f0f7a11" },
    });
    expect(r.status).toBe(200);
    expect(r.json.SEQUENCE).toBe(12345678);
    expect(r.json.ERROR).toEqual([]);
    expect(r.json.MESSAGE[0].MESSAGETEXT).toMatch(/completed/);
    await c.api("POST", "/v2/account/transfersen", { body: transferBody(a, b, 0.2) });
    // 0.1 + 0.2 in cents, never in floating point.
    expect((await balanceOf(c, b)).AVAILBAL).toBe(0.3);
    expect((await balanceOf(c, a)).AVAILBAL).toBe(999.7);

    const h = await c.api("GET", "/v2/account/history", { query: { accountNumber: a, displayOrder: "A" } });
    const debit = h.json.ResponseData[0].TRANSACTION.find(
      (t: { TRANAMT: number; DRCRFLAG: string }) => t.TRANAMT === 0.1 && t.DRCRFLAG === "D",
    );
    expect(debit).toMatchObject({
      TRANCD: "9084",
      TRANDESC: `SEN to ${b}`,
      TRANDESCS: "Payout to reserve",
      TRANDESC3: "line three",
      IDEMPOTENCYKEY: "6f1c1f5e-8c8c-4a59-9a53-1d3c2f0f7a11",
      CURRAVAILBAL: 999.9,
      CHECKNBR: "0",
      ORIGPROCDT: "0",
    });
    expect(debit.SenTransferResponse).toMatchObject({
      CounterPartyAccountNumber: b,
      SenderMemo: "Payout to reserve",
      CounterPartyLegalName: "TRANSFER CO",
    });
    const hb = await c.api("GET", "/v2/account/history", { query: { accountNumber: b } });
    const credit = hb.json.ResponseData[0].TRANSACTION[0];
    expect(credit).toMatchObject({
      DRCRFLAG: "C",
      TRANDESC: `SEN from ${a}`,
      TRANDESCS: "From operations",
      TRANAMT: 0.1,
    });
    expect(credit.SenTransferResponse.CounterPartyAccountNumber).toBe(a);
  });

  it("shows SerialNumber1 and SerialNumber2 on the debit item in history and extendedhistory", async () => {
    // Accounts of its own, so the other tests' balances stay as they expect.
    const from = await c.account("SEN", 10);
    const to = await c.account("SEN", 0);
    const r = await c.api("POST", "/v2/account/transfersen", {
      body: transferBody(from, to, 0.07, {
        SerialNumber1: "SER-ONE-000001",
        SerialNumber2: "SER-TWO-000002",
        AccountFromDescription2: "serial numbers shown",
      }),
    });
    expect(r.json.ERROR).toEqual([]);
    const isDebit = (t: { TRANDESCS: string; DRCRFLAG: string }) =>
      t.TRANDESCS === "serial numbers shown" && t.DRCRFLAG === "D";
    const h = await c.api("GET", "/v2/account/history", { query: { accountNumber: from } });
    const debit = h.json.ResponseData[0].TRANSACTION.find(isDebit);
    expect(debit).toMatchObject({
      TRANAMT: 0.07,
      TRANDESC8: "SER-ONE-000001",
      TRANDESC9: "SER-TWO-000002",
      TRANDESC10: "",
    });
    const ext = await c.api("GET", "/v2/account/extendedhistory", {
      query: { accountNumber: from, date: debit.TRANDATE },
    });
    expect(ext.json.ResponseData[0].TRANSACTION.find(isDebit)).toMatchObject({
      TRANDESC8: "SER-ONE-000001",
      TRANDESC9: "SER-TWO-000002",
    });
    // The credit item is the counterparty's: the caller's references are not shown there.
    const hb = await c.api("GET", "/v2/account/history", { query: { accountNumber: to } });
    const credit = hb.json.ResponseData[0].TRANSACTION.find(
      (t: { TRANAMT: number; DRCRFLAG: string }) => t.TRANAMT === 0.07 && t.DRCRFLAG === "C",
    );
    expect(credit).toMatchObject({ TRANDESC8: "", TRANDESC9: "" });
  });

  it("accepts camelCase bodies (the production client's habit) and XML both ways", async () => {
    const camel = await c.api("POST", "/v2/account/transfersen", {
      body: { accountNumberFrom: a, accountNumberTo: b, amount: 1 },
    });
    expect(camel.json.ERROR).toEqual([]);
    const xml = await c.api("POST", "/v2/account/transfersen", {
      xml: `<?xml version="1.0"?><TransferRequest><SequenceNumber>77</SequenceNumber><AccountNumberFrom>${a}</AccountNumberFrom><AccountNumberTo>${b}</AccountNumberTo><Amount>2.50</Amount></TransferRequest>`,
    });
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(
      /^<\?xml[^>]*\?><TransferResponse><SEQUENCE>77<\/SEQUENCE><MESSAGE><MESSAGEID>I0001<\/MESSAGEID>/,
    );
    expect((await balanceOf(c, b)).AVAILBAL).toBe(3.8);
  });

  it.each([
    ["insufficient funds", () => transferBody(a, b, 1_000_000), "E0201", "Amount"],
    ["a DDA account", () => transferBody(dda, b, 1), "E0104", "AccountNumberFrom"],
    ["another customer's source account", () => transferBody(foreign, a, 1), "E0101", "AccountNumberFrom"],
    ["an unknown destination", () => transferBody(a, "0000000001", 1), "E0101", "AccountNumberTo"],
    ["the same account twice", () => transferBody(a, a, 1), "E0202", "AccountNumberTo"],
  ])("refuses %s as a business rejection and moves nothing", async (_label, body, id, field) => {
    const before = [(await balanceOf(c, a)).AVAILBAL, (await balanceOf(c, b)).AVAILBAL];
    const r = await c.api("POST", "/v2/account/transfersen", { body: body() });
    expect(r.status).toBe(200);
    expect(r.json.MESSAGE).toEqual([]);
    expect(r.json.ERROR).toEqual([
      { MESSAGEID: id, SEGMENTID: "", FIELDNAME: field, ERRORMSG: expect.any(String) },
    ]);
    expect([(await balanceOf(c, a)).AVAILBAL, (await balanceOf(c, b)).AVAILBAL]).toEqual(before);
  });

  it("pays into another customer's SEN account", async () => {
    const r = await c.api("POST", "/v2/account/transfersen", { body: transferBody(a, foreign, 5) });
    expect(r.json.ERROR).toEqual([]);
    expect((await balanceOf(other, foreign)).AVAILBAL).toBe(15);
  });

  describe(BANK_HEADERS.idempotencyKey, () => {
    it("returns the first response and moves money once for the same key and body", async () => {
      const key = "0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa";
      const body = transferBody(a, b, 10, { SequenceNumber: 5 });
      const before = (await balanceOf(c, b)).AVAILBAL;
      const first = await c.api("POST", "/v2/account/transfersen", {
        body,
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      const second = await c.api("POST", "/v2/account/transfersen", {
        body,
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      // The same request in XML with other name case is the same request.
      const third = await c.api("POST", "/v2/account/transfersen", {
        xml: `<T><sequencenumber>5</sequencenumber><accountnumberfrom>${a}</accountnumberfrom><ACCOUNTNUMBERTO>${b}</ACCOUNTNUMBERTO><amount>10.00</amount></T>`,
        headers: { [BANK_HEADERS.idempotencyKey]: key, accept: "application/json" },
      });
      expect(second.json).toEqual(first.json);
      expect(third.json).toEqual(first.json);
      expect((await balanceOf(c, b)).AVAILBAL).toBeCloseTo(before + 10, 2);
    });

    it("moves money once when 20 duplicates arrive at the same time", async () => {
      const key = "0d2b0c9e-2222-4a2b-9c1d-bbbbbbbbbbbb";
      const before = (await balanceOf(c, b)).AVAILBAL;
      const rs = await sameTransferAtOnce(c, 20, transferBody(a, b, 1.25), key);
      expect(new Set(rs.map((r) => r.text)).size).toBe(1);
      expect((await balanceOf(c, b)).AVAILBAL).toBeCloseTo(before + 1.25, 2);
    });

    it("rejects the same key with another body and moves nothing", async () => {
      const key = "0d2b0c9e-3333-4a2b-9c1d-cccccccccccc";
      await c.api("POST", "/v2/account/transfersen", {
        body: transferBody(a, b, 1),
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      const before = (await balanceOf(c, b)).AVAILBAL;
      const r = await c.api("POST", "/v2/account/transfersen", {
        body: transferBody(a, b, 2),
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      expect(r.status).toBe(400);
      expect(r.json.errors[0].field).toBe(BANK_HEADERS.idempotencyKey);
      expect((await balanceOf(c, b)).AVAILBAL).toBe(before);
    });

    it("keeps keys per customer", async () => {
      const key = "0d2b0c9e-4444-4a2b-9c1d-dddddddddddd";
      const mine = await c.api("POST", "/v2/account/transfersen", {
        body: transferBody(a, b, 1),
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      const theirs = await other.api("POST", "/v2/account/transfersen", {
        body: transferBody(foreign, a, 1),
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      expect(mine.json.ERROR).toEqual([]);
      expect(theirs.json.ERROR).toEqual([]);
    });

    it("refuses a malformed key with a 400", async () => {
      const r = await c.api("POST", "/v2/account/transfersen", {
        body: transferBody(a, b, 1),
        headers: { [BANK_HEADERS.idempotencyKey]: "not a uuid!" },
      });
      expect(r.status).toBe(400);
      expect(r.json.errors[0].field).toBe(BANK_HEADERS.idempotencyKey);
    });
  });
});

describe("idempotency key retention", () => {
  it("keeps keys for 24 hours and purges them after 48", async () => {
    const { purgeIdempotencyKeys } = await import("../../bank/ledger/housekeeping.ts");
    const bank = await startTestBank();
    try {
      const c = await newCustomer(bank);
      const a = await c.account("SEN", 10);
      const b = await c.account("SEN", 0);
      const key = "9a9a9a9a-0000-4000-8000-000000000001";
      const send = () =>
        c.api("POST", "/v2/account/transfersen", {
          body: transferBody(a, b, 1),
          headers: { [BANK_HEADERS.idempotencyKey]: key },
        });
      await send();
      await bank.running.bank.clock.advance(24 * 3600);
      expect(await purgeIdempotencyKeys(bank.running.bank)).toBe(0);
      await bank.running.bank.clock.advance(24 * 3600 + 60);
      expect(await purgeIdempotencyKeys(bank.running.bank)).toBe(1);
    } finally {
      await bank.close();
    }
  });
});
