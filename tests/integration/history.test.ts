import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/bank-api/dates.ts";
import {
  BACKENDS,
  newCustomer,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
} from "../helpers/bank.ts";

/** Posts n credits on one business day through the ledger's own function (fast seeding). */
async function seedCredits(bank: TestBank, account: string, date: string, n: number, paymentId = "") {
  await bank.running.bank.db.query(
    `SELECT post_entry($1, 'C', 100 + g, '1100', ARRAY['SEED ' || g, 'LINE2'], $2::timestamptz + make_interval(secs => g), $3, $4, '')
     FROM generate_series(1, $5) AS g`,
    [account, `${date}T15:00:00Z`, date, paymentId, n],
  );
}

type Tx = { TRANDATE: string; TRANAMT: number; UniqueId: string; TRANDESC: string; PaymentId: string };

describe.each(BACKENDS)("history on $name", ({ postgres }) => {
  let bank: TestBank;
  let c: TestCustomer;
  let other: TestCustomer;
  let acct: string;
  let today: string;

  beforeAll(async () => {
    bank = await startTestBank({ postgres });
    c = await newCustomer(bank, "History Co");
    other = await newCustomer(bank, "Nosy Co");
    acct = await c.account("SEN", 0);
    today = bank.running.bank.clock.businessDate();
    await seedCredits(bank, acct, addDays(today, -3), 3);
    await seedCredits(bank, acct, addDays(today, -2), 2);
    await seedCredits(bank, acct, today, 1);
  });
  afterAll(() => bank?.close());

  const history = (query: Record<string, string | number | undefined>, who = () => c) =>
    who().api("GET", "/v2/account/history", { query: { accountNumber: acct, ...query } });

  it("defaults to today in the bank's time zone", async () => {
    const r = await history({ sequenceNumber: 3 });
    expect(r.json.SEQUENCE).toBe(3);
    const items: Tx[] = r.json.ResponseData[0].TRANSACTION;
    expect(items.map((t) => t.TRANDATE)).toEqual([today]);
    expect(r.json.ResponseData[0]).toMatchObject({ RECS_RETURNED: 1, MOREDATA: "N" });
  });

  it("reads a range in both date formats, ascending or descending", async () => {
    const d3 = addDays(today, -3);
    const d2 = addDays(today, -2);
    const asc = await history({ beginDate: d3, endDate: d2, displayOrder: "A" });
    const ascItems: Tx[] = asc.json.ResponseData[0].TRANSACTION;
    expect(ascItems.map((t) => t.TRANDATE)).toEqual([d3, d3, d3, d2, d2]);
    const desc = await history({
      beginDate: `${d3}T12:00:00-05:00`,
      endDate: `${d2}T12:00:00-05:00`,
      displayOrder: "d",
    });
    expect(desc.json.ResponseData[0].TRANSACTION.map((t: Tx) => t.TRANAMT)).toEqual(
      [...ascItems.map((t) => t.TRANAMT)].reverse(),
    );
  });

  it("reads from beginDate to today when endDate is absent", async () => {
    const r = await history({ beginDate: addDays(today, -2) });
    expect(r.json.ResponseData[0].RECS_RETURNED).toBe(3);
  });

  it("finds a transaction by its UniqueId, which encodes the fields docs/api-notes.md lists", async () => {
    const all: Tx[] = (await history({ beginDate: addDays(today, -3) })).json.ResponseData[0].TRANSACTION;
    const t = all[1];
    const decoded = JSON.parse(Buffer.from(t.UniqueId, "base64").toString("utf8"));
    expect(Object.keys(decoded)).toEqual([
      "AccountNumber",
      "TransactionDate",
      "TransactionAmount",
      "TransactionCode",
      "Description",
      "ExtendedDescriptionLine2",
    ]);
    expect(decoded.TransactionDate).toBe(t.TRANDATE.replaceAll("-", ""));
    expect(decoded.TransactionAmount).toBe(t.TRANAMT.toFixed(2));
    const r = await c.api("GET", "/v2/account/history", { query: { uniqueId: t.UniqueId } });
    expect(r.json.ResponseData[0].TRANSACTION).toEqual([t]);
    // Another customer cannot read it through the id.
    const nosy = await other.api("GET", "/v2/account/history", { query: { uniqueId: t.UniqueId } });
    expect(nosy.json.ResponseData[0].TRANSACTION).toEqual([]);
    expect(nosy.json.ERROR).toHaveLength(1);
  });

  it("matches nothing for a well-formed UniqueId with an impossible date or amount", async () => {
    for (const [date, amount] of [
      ["20261399", "1.00"],
      ["2026xx01", "1.00"],
      ["20261101", "1.001"],
    ]) {
      const forged = Buffer.from(
        JSON.stringify({
          AccountNumber: acct,
          TransactionDate: date,
          TransactionAmount: amount,
          TransactionCode: "1100",
          Description: "x",
          ExtendedDescriptionLine2: "",
        }),
      ).toString("base64");
      const r = await c.api("GET", "/v2/account/history", { query: { uniqueId: forged } });
      expect(r.status).toBe(200);
      expect(r.json.ResponseData[0].TRANSACTION).toEqual([]);
    }
  });

  it("finds the entries of a payment by paymentId", async () => {
    await seedCredits(bank, acct, addDays(today, -10), 1, "M01TESTPAY0001");
    const r = await history({ paymentId: "M01TESTPAY0001" });
    const items: Tx[] = r.json.ResponseData[0].TRANSACTION;
    expect(items).toHaveLength(1);
    expect(items[0].PaymentId).toBe("M01TESTPAY0001");
  });

  it("returns at most 520 items and says MOREDATA=Y exactly when more existed", async () => {
    const busy = await c.account("SEN", 0);
    const day = addDays(today, -1);
    await seedCredits(bank, busy, day, 520);
    const exact = await c.api("GET", "/v2/account/history", {
      query: { accountNumber: busy, beginDate: day, endDate: day },
    });
    expect(exact.json.ResponseData[0]).toMatchObject({ RECS_RETURNED: 520, MOREDATA: "N" });
    await seedCredits(bank, busy, day, 1);
    const over = await c.api("GET", "/v2/account/history", {
      query: { accountNumber: busy, beginDate: day, endDate: day },
    });
    expect(over.json.ResponseData[0]).toMatchObject({ RECS_RETURNED: 520, MOREDATA: "Y" });
    expect(over.json.ResponseData[0].TRANSACTION).toHaveLength(520);
    const ext = await c.api("GET", "/v2/account/extendedhistory", {
      query: { accountNumber: busy, date: day },
    });
    expect(ext.json.ResponseData[0]).toMatchObject({ RECS_RETURNED: 521, MOREDATA: "N" });
  });

  it("returns at most 5,000 items of one day from extendedhistory", async () => {
    const busier = await c.account("SEN", 0);
    const day = addDays(today, -4);
    await seedCredits(bank, busier, day, 5000);
    const exact = await c.api("GET", "/v2/account/extendedhistory", {
      query: { accountNumber: busier, date: day, displayOrder: "D" },
    });
    expect(exact.json.ResponseData[0]).toMatchObject({ RECS_RETURNED: 5000, MOREDATA: "N" });
    await seedCredits(bank, busier, day, 1);
    const over = await c.api("GET", "/v2/account/extendedhistory", {
      query: { accountNumber: busier, date: `${day}T10:00:00Z` },
    });
    expect(over.json.ResponseData[0]).toMatchObject({ RECS_RETURNED: 5000, MOREDATA: "Y" });
  });

  it("keeps the history of both sides of a transfer", async () => {
    const from = await c.account("SEN", 50);
    const to = await other.account("SEN", 0);
    await c.api("POST", "/v2/account/transfersen", {
      body: transferBody(from, to, 20, { AccountFromDescription2: "rent" }),
    });
    const mine = await c.api("GET", "/v2/account/history", { query: { accountNumber: from } });
    const theirs = await other.api("GET", "/v2/account/history", { query: { accountNumber: to } });
    expect(mine.json.ResponseData[0].TRANSACTION.map((t: Tx) => t.TRANDESC)).toEqual([
      "OPENING DEPOSIT",
      `SEN to ${to}`,
    ]);
    expect(theirs.json.ResponseData[0].TRANSACTION.map((t: Tx) => t.TRANDESC)).toEqual([`SEN from ${from}`]);
  });

  it("answers in XML", async () => {
    const r = await c.api("GET", "/v2/account/history", {
      query: { accountNumber: acct, beginDate: addDays(today, -3) },
      headers: { accept: "application/xml" },
    });
    expect(r.headers.get("content-type")).toMatch(/application\/xml/);
    expect(r.text).toMatch(
      /<HistoryResponse><SEQUENCE>0<\/SEQUENCE><ResponseData><RECS_RETURNED>\d+<\/RECS_RETURNED><MOREDATA>N<\/MOREDATA><TRANSACTION><TRANDATE>/,
    );
  });

  it.each([
    [{ beginDate: "2026-02-30" }, "beginDate"],
    [{ beginDate: "yesterday" }, "beginDate"],
    [{ endDate: "2026-01-01T25:00:00Z" }, "endDate"],
    [{ displayOrder: "X" }, "displayOrder"],
    [{ sequenceNumber: "abc" }, "sequenceNumber"],
    [{ sequenceNumber: "99999999999" }, "sequenceNumber"],
    [{ beginDate: "2026-11-10", endDate: "2026-11-01" }, "endDate"],
    [{ uniqueId: "not-base64!" }, "uniqueId"],
    [{ uniqueId: Buffer.from('{"AccountNumber":1}').toString("base64") }, "uniqueId"],
  ])("answers 400 for %j naming %s", async (query, field) => {
    const r = await history(query);
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("needs accountNumber unless uniqueId is given, and refuses others' accounts in ERROR", async () => {
    const none = await c.api("GET", "/v2/account/history");
    expect(none.status).toBe(400);
    expect(none.json.errors[0].field).toBe("accountNumber");
    const foreign = await history({}, () => other);
    expect(foreign.status).toBe(200);
    expect(foreign.json.ResponseData[0].TRANSACTION).toEqual([]);
    expect(foreign.json.ERROR[0].FIELDNAME).toBe("accountNumber");
    const ext = await other.api("GET", "/v2/account/extendedhistory", { query: { accountNumber: acct } });
    expect(ext.json.ERROR).toHaveLength(1);
    expect(ext.json.ResponseData[0].TRANSACTION).toEqual([]);
  });
});
