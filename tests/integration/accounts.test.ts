import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, newCustomer, startTestBank, type TestBank, type TestCustomer } from "../helpers/bank.ts";

describe.each(BACKENDS)("accounts on $name", ({ postgres }) => {
  let bank: TestBank;
  let c: TestCustomer;
  let other: TestCustomer;
  let dda: string;
  let sen: string;
  let foreign: string;

  beforeAll(async () => {
    bank = await startTestBank({ postgres });
    c = await newCustomer(bank, "Harbor Freight Partners");
    other = await newCustomer(bank, "Other Corp");
    dda = await c.account("DDA", 1500.25);
    sen = await c.account("SEN", 99.99);
    foreign = await other.account("SEN", 500);
  });
  afterAll(() => bank?.close());

  it("lists only the key's own accounts, echoing sequenceNumber", async () => {
    const r = await c.api("GET", "/v2/account/list", { query: { sequenceNumber: 42 } });
    expect(r.status).toBe(200);
    expect(r.json.SEQUENCE).toBe(42);
    const data = r.json.ResponseData[0];
    expect(data.RECS_RETURNED).toBe(2);
    expect(data.MOREDATA).toBe("N");
    expect(data.CUSTACCT.map((a: { ACTNBR: string }) => a.ACTNBR).sort()).toEqual([dda, sen].sort());
    const rec = data.CUSTACCT.find((a: { ACTNBR: string }) => a.ACTNBR === sen);
    expect(Object.keys(rec).sort()).toEqual(
      [
        "APPLCD",
        "APPLDESC",
        "ACTNBR",
        "PRODTYPE",
        "PRODDESC",
        "RELTYPE",
        "RELTYPEDSC",
        "ACTSTATUS",
        "LGLTTLLN1",
        "LGLTTLLN2",
        "LGLTTLLN3",
        "LGLTTLLN4",
        "LGLTTLLN5",
        "LGLTTLLN6",
        "SHORTNAME",
      ].sort(),
    );
    expect(rec.ACTNBR).toMatch(/^\d{10}$/);
  });

  it("returns the full balance record in exact dollars", async () => {
    const r = await c.api("GET", "/v2/account/balance", { query: { accountNumber: dda, sequenceNumber: 7 } });
    expect(r.status).toBe(200);
    expect(r.json.SEQUENCE).toBe(7);
    expect(r.json.ERROR).toEqual([]);
    const b = r.json.ResponseData[0];
    expect(b.AVAILBAL).toBe(1500.25);
    expect(b.CURRBAL).toBe(1500.25);
    expect(b.TOTALHOLDS).toBe(0);
    expect(b.LSTDEPAMT).toBe(1500.25);
    expect(b.STATUS).toBe("A");
    expect(b.AVGROLBAL).toEqual({});
    expect(b.ACTOPNDT).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("answers the cash-manager balance", async () => {
    const r = await c.api("GET", "/v2/account/cashmanagerbalance", { query: { accountNumber: sen } });
    expect(r.json.ResponseData.AvailableBalance).toBe(99.99);
    expect(r.json.ResponseData.OpenDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("rejects another customer's account in ERROR without showing its data", async () => {
    for (const p of ["/v2/account/balance", "/v2/account/cashmanagerbalance"]) {
      const r = await c.api("GET", p, { query: { accountNumber: foreign } });
      expect(r.status).toBe(200);
      expect(r.json.ERROR).toHaveLength(1);
      expect(r.json.ERROR[0].FIELDNAME).toBe("accountNumber");
      expect(r.text).not.toContain("500");
      const unknown = await c.api("GET", p, { query: { accountNumber: "0000000001" } });
      // The same answer for a foreign and a missing account: no oracle.
      expect(unknown.json.ERROR[0].ERRORMSG).toBe(r.json.ERROR[0].ERRORMSG);
    }
  });

  it("needs accountNumber on balance calls", async () => {
    const r = await c.api("GET", "/v2/account/balance");
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe("accountNumber");
  });

  describe("createsen", () => {
    const valid = {
      SequenceNumber: 9,
      ExpectedBalance: 1000,
      ExpectedIncomingAmtMonth: 5000,
      ExpectedOutgoingAmtMonth: 4000,
    };

    it("opens a SEN account that appears in the list, forcing the type to S", async () => {
      const r = await c.api("POST", "/v2/account/createsen", { body: { ...valid, AccountType: "D" } });
      expect(r.status).toBe(200);
      expect(r.json.SequenceNumber).toBe(9);
      expect(r.json.Errors).toEqual([]);
      expect(r.json.AccountNumber).toMatch(/^\d{10}$/);
      const list = await c.api("GET", "/v2/account/list");
      const rec = list.json.ResponseData[0].CUSTACCT.find(
        (a: { ACTNBR: string }) => a.ACTNBR === r.json.AccountNumber,
      );
      expect(rec.PRODDESC).toMatch(/SEN/);
      // Title lines inherited from the customer.
      expect(rec.LGLTTLLN1).toBe("HARBOR FREIGHT PARTNERS");
    });

    it("uses AltTitleLine overrides", async () => {
      const r = await c.api("POST", "/v2/account/createsen", {
        body: { ...valid, AltTitleLine1: "HFP ESCROW", AltTitleLine2: "FBO CLIENTS" },
      });
      const list = await c.api("GET", "/v2/account/list");
      const rec = list.json.ResponseData[0].CUSTACCT.find(
        (a: { ACTNBR: string }) => a.ACTNBR === r.json.AccountNumber,
      );
      expect([rec.LGLTTLLN1, rec.LGLTTLLN2]).toEqual(["HFP ESCROW", "FBO CLIENTS"]);
    });

    it("accepts camelCase names and XML", async () => {
      const camel = await c.api("POST", "/v2/account/createsen", {
        body: { expectedBalance: 1, expectedIncomingAmtMonth: 1, expectedOutgoingAmtMonth: 999999999 },
      });
      expect(camel.json.AccountNumber).toMatch(/^\d{10}$/);
      const xml = await c.api("POST", "/v2/account/createsen", {
        xml: "<CreateSenRequest><SequenceNumber>3</SequenceNumber><ExpectedBalance>10</ExpectedBalance><ExpectedIncomingAmtMonth>20</ExpectedIncomingAmtMonth><ExpectedOutgoingAmtMonth>30</ExpectedOutgoingAmtMonth></CreateSenRequest>",
      });
      expect(xml.status).toBe(200);
      expect(xml.headers.get("content-type")).toMatch(/xml/);
      expect(xml.text).toMatch(/<SequenceNumber>3<\/SequenceNumber><AccountNumber>\d{10}<\/AccountNumber>/);
    });

    it.each([
      ["ExpectedBalance", 0],
      ["ExpectedBalance", 1_000_000_000],
      ["ExpectedIncomingAmtMonth", 12.5],
      ["ExpectedOutgoingAmtMonth", "100"],
    ])("refuses %s = %j with a 400 naming it and opens nothing", async (field, value) => {
      const before = (await c.api("GET", "/v2/account/list")).json.ResponseData[0].RECS_RETURNED;
      const r = await c.api("POST", "/v2/account/createsen", { body: { ...valid, [field]: value } });
      expect(r.status).toBe(400);
      expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await c.api("GET", "/v2/account/list")).json.ResponseData[0].RECS_RETURNED).toBe(before);
    });
  });
});
