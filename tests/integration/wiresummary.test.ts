import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessDayFormatter, DEFAULT_TIME_ZONE } from "../../lib/bank-api/dates.ts";
import type { FieldError } from "../../lib/bank-api/errors.ts";
import type { Transaction } from "../../lib/bank-api/history.ts";
import { EWIRE_STRING_FIELDS } from "../../lib/bank-api/wiresummary.ts";
import { parseXmlResponse } from "../../lib/bank-api/xml.ts";
import { newCustomer, sandbox, startTestBank, type TestBank, type TestCustomer } from "../helpers/bank.ts";

let bank: TestBank;
let c: TestCustomer;
let acct: string;
let outId: string;
let inId: string;
beforeAll(async () => {
  bank = await startTestBank();
  c = await newCustomer(bank, "Summary Co");
  acct = await c.account("DDA", 5_000);
  const out = await c.api("POST", "/v2/payment", {
    body: {
      originator_account_number: acct,
      amount: 1200.5,
      receiving_bank_routing_id: "011000015",
      beneficiary_name: "INITECH LLC",
      beneficiary_account_number: "4455667788",
      beneficiary_address1: "9 ELM ST",
      originator_to_beneficiary_info: `INV-2026-0042 ${"X".repeat(60)}`,
    },
  });
  outId = out.json.payment_id;
  const inc = await sandbox(bank, "POST", "/sandbox/incoming-wires", {
    accountNumber: acct,
    amount: 300,
    originatorName: "GLOBEX CORP",
    originatorBankRoutingId: "091999997",
  });
  inId = inc.payment_id;
  await c.api("PUT", "/v2/payment", {
    query: { account_number: acct, payment_id: inId, action: "approve", timestamp: inc.payment_timestamp },
  });
  await sandbox(bank, "POST", "/sandbox/settle", {});
});
afterAll(() => bank?.close());

/** The bank's business date (its default time zone), as the tests' dates must be. */
const today = () => businessDayFormatter(DEFAULT_TIME_ZONE)(new Date());

describe("GET /v2/account/wiresummary", () => {
  it("lists a day's outgoing summaries with every suffixed field and realistic IMAD parts", async () => {
    const r = await c.api("GET", "/v2/account/wiresummary", {
      query: { accountNumber: acct, date: today(), sourceIndicator: "O", sequenceNumber: 7 },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ Errors: [], SequenceNumber: 7, RecordCount: 1 });
    const s = r.json.EwireSummaries[0];
    for (const f of EWIRE_STRING_FIELDS) expect(typeof s[f], f).toBe("string");
    expect(s).toMatchObject({
      Amount_12: 1200.5,
      SourceIndicator_21: "O",
      FedWireType_17: "10",
      FedwireSubType_18: "00",
      Name_71: "INITECH LLC",
      BeneficiaryId_70: "4455667788",
      OriginatorId_43: acct,
      OriginatorToBeneficiaryInfoLine1_96: `INV-2026-0042 ${"X".repeat(21)}`,
      Status: "Complete",
    });
    expect(s.OriginatorToBeneficiaryInfoLine2_97).toBe("X".repeat(35));
    expect(s.ImadCycleDate_117).toMatch(/^\d{8}$/);
    expect(s.ImadLtermId_121).toMatch(/^[A-Z0-9]{8}$/);
    expect(s.Imsn_120).toMatch(/^\d{6}$/);
    expect(s.ImadTime_122).toMatch(/^\d{4}$/);
    const p = await c.api("GET", "/v2/payment", { query: { account_number: acct, payment_id: outId } });
    expect(p.json[0].imad).toBe(`${s.ImadCycleDate_117}${s.ImadLtermId_121}${s.Imsn_120}`);
  });

  it("lists incoming summaries by source indicator I", async () => {
    const r = await c.api("GET", "/v2/account/wiresummary", {
      query: { accountNumber: acct, date: today(), sourceIndicator: "i" },
    });
    expect(r.json.RecordCount).toBe(1);
    expect(r.json.EwireSummaries[0]).toMatchObject({
      SourceIndicator_21: "I",
      Amount_12: 300,
      Name_44: "GLOBEX CORP",
      SendingBankId_25: "091999997",
    });
  });

  it("finds a summary by transaction number and by the UniqueId that history shows", async () => {
    const day = await c.api("GET", "/v2/account/wiresummary", {
      query: { accountNumber: acct, date: today(), sourceIndicator: "O" },
    });
    const trn = day.json.EwireSummaries[0].TransactionNumber_1;
    const byTrn = await c.api("GET", "/v2/account/wiresummary", { query: { transactionNumber: trn } });
    expect(byTrn.json.RecordCount).toBe(1);
    expect(byTrn.json.EwireSummaries[0].TransactionNumber_1).toBe(trn);

    const hist = await c.api("GET", "/v2/account/history", { query: { accountNumber: acct } });
    const entry = hist.json.ResponseData[0].TRANSACTION.find((t: Transaction) => t.PaymentId === outId);
    const byUid = await c.api("GET", "/v2/account/wiresummary", { query: { uniqueId: entry.UniqueId } });
    expect(byUid.json.RecordCount).toBe(1);
    expect(byUid.json.EwireSummaries[0].UniqueId).toBe(entry.UniqueId);
  });

  it("shows nothing of another customer's wires", async () => {
    const other = await newCustomer(bank, "Nosy Co");
    const day = await c.api("GET", "/v2/account/wiresummary", {
      query: { accountNumber: acct, date: today(), sourceIndicator: "O" },
    });
    const trn = day.json.EwireSummaries[0].TransactionNumber_1;
    const byAccount = await other.api("GET", "/v2/account/wiresummary", {
      query: { accountNumber: acct, date: today(), sourceIndicator: "O" },
    });
    expect(byAccount.status).toBe(200);
    expect(byAccount.json).toMatchObject({ RecordCount: 0, EwireSummaries: [] });
    expect(byAccount.json.Errors[0].FIELDNAME).toBe("accountNumber");
    const byTrn = await other.api("GET", "/v2/account/wiresummary", { query: { transactionNumber: trn } });
    expect(byTrn.json).toMatchObject({ RecordCount: 0, EwireSummaries: [] });
  });

  it.each([
    [{ accountNumber: "1", sourceIndicator: "O" }, "date"],
    [{ accountNumber: "1", date: "2026-01-01" }, "sourceIndicator"],
    [{ date: "2026-01-01", sourceIndicator: "O" }, "accountNumber"],
    [{ accountNumber: "1", date: "2026-13-01", sourceIndicator: "O" }, "date"],
    [{ accountNumber: "1", date: "2026-01-01", sourceIndicator: "X" }, "sourceIndicator"],
    [{ transactionNumber: "1".repeat(21) }, "transactionNumber"],
    [{ transactionNumber: "\u0000" }, "transactionNumber"],
    [{ uniqueId: "abc\u0000" }, "uniqueId"],
  ])("answers 400 for %j naming %s", async (q, field) => {
    const r = await c.api("GET", "/v2/account/wiresummary", { query: q });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: FieldError) => e.field)).toContain(field);
  });

  it("answers in XML", async () => {
    const r = await c.api("GET", "/v2/account/wiresummary", {
      query: { accountNumber: acct, date: today(), sourceIndicator: "O" },
      headers: { accept: "application/xml" },
    });
    expect(r.text).toContain("<WireSummaryResponse>");
    const body = parseXmlResponse(r.text) as { RecordCount: string; EwireSummaries: Record<string, string> };
    expect(body.RecordCount).toBe("1");
    expect(body.EwireSummaries.Name_71).toBe("INITECH LLC");
  });
});
