// What real clients send and what an attacker tries: nulls for unset fields, valueless query
// parameters, GUIDs in every spelling, amounts with long decimal texts, names given twice,
// XML character references and invisible format characters. Each answer is checked against
// the ledger: a refused request moves nothing, an accepted one moves money once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import {
  BACKENDS,
  balanceOf,
  newCustomer,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
  wireBody,
} from "../helpers/bank.ts";

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());

const fields = (r: { json: { errors?: { field: string }[] } }) => (r.json.errors ?? []).map((e) => e.field);

/** Every optional field of the transfer request, unset the way Jackson writes it. */
const JAVA_TRANSFER_NULLS = {
  SequenceNumber: null,
  SerialNumber1: null,
  SerialNumber2: null,
  ...Object.fromEntries(
    [2, 3, 4, 5, 6, 7].flatMap((i) => [
      [`AccountFromDescription${i}`, null],
      [`AccountToDescription${i}`, null],
    ]),
  ),
};

/** A bank of its own and a customer with two SEN accounts (100.00 and 0) and a DDA (1,000.00). */
async function bankWithAccounts(name: string) {
  const bank = await startTestBank();
  const c = await newCustomer(bank, name);
  return {
    bank,
    c,
    a: await c.account("SEN", 100),
    b: await c.account("SEN", 0),
    dda: await c.account("DDA", 1000),
  };
}

describe("absent values", () => {
  let bank: TestBank;
  let c: TestCustomer;
  let a: string;
  let b: string;
  let dda: string;

  beforeAll(async () => {
    ({ bank, c, a, b, dda } = await bankWithAccounts("Jackson Client Co"));
  });
  afterAll(() => bank?.close());

  it("takes a transfer whose unset fields are null or empty, and moves the money", async () => {
    const r = await c.api("POST", "/v2/account/transfersen", {
      body: { ...transferBody(a, b, 1.25), ...JAVA_TRANSFER_NULLS, SerialNumber2: "" },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.ERROR).toEqual([]);
    expect(r.json.SEQUENCE).toBe(0);
    expect((await balanceOf(c, b)).AVAILBAL).toBe(1.25);
  });

  it("takes an XML transfer with empty elements for its unset fields", async () => {
    const r = await c.api("POST", "/v2/account/transfersen", {
      xml: `<TransferRequest><SequenceNumber/><AccountNumberFrom>${a}</AccountNumberFrom><AccountNumberTo>${b}</AccountNumberTo><Amount>0.75</Amount><SerialNumber1></SerialNumber1><AccountFromDescription2/></TransferRequest>`,
      headers: { accept: "application/json" },
    });
    expect(r.status, r.text).toBe(200);
    expect((await balanceOf(c, b)).AVAILBAL).toBe(2);
  });

  it("names a required field sent as null, and moves nothing", async () => {
    const r = await c.api("POST", "/v2/account/transfersen", {
      body: { ...transferBody(a, b, 1), AccountNumberTo: null, Amount: null, ...JAVA_TRANSFER_NULLS },
    });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual(
      expect.arrayContaining([
        { field: "AccountNumberTo", message: "is required" },
        { field: "Amount", message: "is required" },
      ]),
    );
    expect((await balanceOf(c, b)).AVAILBAL).toBe(2);
  });

  it("opens a SEN account from a createsen body full of nulls", async () => {
    const r = await c.api("POST", "/v2/account/createsen", {
      body: {
        SequenceNumber: null,
        AccountType: null,
        ExpectedBalance: 1000,
        ExpectedIncomingAmtMonth: 500,
        ExpectedOutgoingAmtMonth: 500,
        AltTitleLine1: null,
        AltTitleLine2: "",
        AltTitleLine3: null,
        AltTitleLine4: null,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.AccountNumber).toMatch(/^\d{10}$/);
  });

  it("sends a wire whose unset fields are null", async () => {
    const nulls = Object.fromEntries(
      [
        "receiving_bank_address1",
        "receiving_bank_address2",
        "receiving_bank_address3",
        "intermediary_bank_type",
        "intermediary_bank_routing_id",
        "intermediary_bank_account_number",
        "intermediary_bank_name",
        "beneficiary_bank_type",
        "beneficiary_bank_routing_id",
        "beneficiary_bank_name",
        "beneficiary_address2",
        "beneficiary_address3",
        "originator_to_beneficiary_info",
      ].map((k) => [k, null]),
    );
    const r = await c.api("POST", "/v2/payment", { body: wireBody(dda, 10, nulls) });
    expect(r.status, r.text).toBe(200);
    expect(r.json.payment_status).toBe("In-Progress");
  });

  it("registers a webhook whose unset fields are null", async () => {
    const r = await c.api("POST", "/v2/webhooks/register", {
      body: { AccountNumber: a, Description: null, WebHookUrl: null, Emails: "ops@example.com", Sms: null },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.WebHookId).not.toBe("");
  });

  it.each([
    ["account list", () => "/v2/account/list?sequenceNumber"],
    ["balance", () => `/v2/account/balance?accountNumber=${a}&sequenceNumber`],
    [
      "history",
      () =>
        `/v2/account/history?accountNumber=${a}&sequenceNumber&beginDate&endDate&displayOrder&uniqueId&paymentId`,
    ],
    [
      "extended history",
      () => `/v2/account/extendedhistory?accountNumber=${a}&sequenceNumber&date&displayOrder`,
    ],
    [
      "wire summary",
      () =>
        `/v2/account/wiresummary?accountNumber=${dda}&date=2026-01-02&sourceIndicator=O&sequenceNumber&transactionNumber&uniqueId`,
    ],
    [
      "payment list",
      () =>
        `/v2/payment?account_number=${dda}&payment_id&begin_date=${today()}&end_date&sort_order&page_size&page_number`,
    ],
    ["webhook list", () => "/v2/webhooks/get?accountNumber&webHookId"],
  ])("reads a valueless query parameter as not given (%s)", async (_label, path) => {
    const r = await c.api("GET", path());
    expect(r.status, r.text).toBe(200);
  });

  it("still names a required query parameter that has no value", async () => {
    const r = await c.api("GET", "/v2/account/balance?accountNumber&sequenceNumber=1");
    expect(r.status).toBe(400);
    expect(fields(r)).toEqual(["accountNumber"]);
  });
});

describe.each(BACKENDS)("one Idempotency-Key, one effect, on $name", ({ postgres }) => {
  let bank: TestBank;
  let c: TestCustomer;
  let a: string;
  let b: string;
  let dda: string;

  beforeAll(async () => {
    bank = await startTestBank({ postgres });
    c = await newCustomer(bank, "Many Spellings Co");
    a = await c.account("SEN", 100);
    b = await c.account("SEN", 0);
    dda = await c.account("DDA", 1000);
  });
  afterAll(() => bank?.close());

  const spellings = (guid: string) => [
    guid,
    guid.toUpperCase(),
    `{${guid}}`,
    guid.replaceAll("-", ""),
    `(${guid.toUpperCase()})`,
  ];

  it("moves money once for one GUID written five ways", async () => {
    const guid = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
    const answers = [];
    for (const key of spellings(guid)) {
      const r = await c.api("POST", "/v2/account/transfersen", {
        body: transferBody(a, b, 5),
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      expect(r.status, r.text).toBe(200);
      answers.push(r.json.MESSAGE[0].MESSAGETEXT);
    }
    expect(new Set(answers).size).toBe(1);
    expect((await balanceOf(c, b)).AVAILBAL).toBe(5);
    const h = await c.api("GET", "/v2/account/history", { query: { accountNumber: b } });
    expect(
      h.json.ResponseData[0].TRANSACTION.map((t: { IDEMPOTENCYKEY: string }) => t.IDEMPOTENCYKEY),
    ).toEqual([guid]);
  });

  it("sends one wire for one GUID written in two cases", async () => {
    const guid = "9b2c7e51-0d4a-4f7e-8a61-5c3e2b1a0f99";
    const ids = new Set<string>();
    for (const key of [guid, guid.toUpperCase(), `{${guid}}`]) {
      const r = await c.api("POST", "/v2/payment", {
        body: wireBody(dda, 25),
        headers: { [BANK_HEADERS.idempotencyKey]: key },
      });
      expect(r.status, r.text).toBe(200);
      ids.add(r.json.payment_id);
    }
    expect(ids.size).toBe(1);
    expect((await balanceOf(c, dda)).AVAILBAL).toBe(975);
  });

  it.each([
    ["text", "order-1234"],
    ["a GUID with a wrong digit", "3f2504e0-4f89-11d3-9a0c-0305e82c330g"],
    ["a GUID with some hyphens", "3f2504e04f89-11d3-9a0c-0305e82c3301"],
    ["a GUID with one brace", "{3f2504e0-4f89-11d3-9a0c-0305e82c3301"],
  ])("answers 400 naming Idempotency-Key for %s, and moves nothing", async (_label, key) => {
    const t = await c.api("POST", "/v2/account/transfersen", {
      body: transferBody(a, b, 1),
      headers: { [BANK_HEADERS.idempotencyKey]: key },
    });
    expect(t.status).toBe(400);
    expect(fields(t)).toEqual([BANK_HEADERS.idempotencyKey]);
    const p = await c.api("POST", "/v2/payment", {
      body: wireBody(dda, 1),
      headers: { [BANK_HEADERS.idempotencyKey]: key },
    });
    expect(p.status).toBe(400);
    expect(fields(p)).toEqual([BANK_HEADERS.idempotencyKey]);
    expect((await balanceOf(c, b)).AVAILBAL).toBe(5);
    expect((await balanceOf(c, dda)).AVAILBAL).toBe(975);
  });
});

describe("bodies read as written", () => {
  let bank: TestBank;
  let c: TestCustomer;
  let a: string;
  let b: string;
  let dda: string;

  beforeAll(async () => {
    ({ bank, c, a, b, dda } = await bankWithAccounts("Careful Reader Co"));
  });
  afterAll(() => bank?.close());

  const raw = (text: string) =>
    c.api("POST", "/v2/account/transfersen", { body: text, headers: { "content-type": "application/json" } });
  const xml = (inner: string) =>
    c.api("POST", "/v2/account/transfersen", {
      xml: `<TransferRequest><AccountNumberFrom>${a}</AccountNumberFrom><AccountNumberTo>${b}</AccountNumberTo>${inner}</TransferRequest>`,
      headers: { accept: "application/json" },
    });
  const unmoved = async () => {
    expect((await balanceOf(c, a)).AVAILBAL).toBe(100);
    expect((await balanceOf(c, b)).AVAILBAL).toBe(0);
  };

  describe("no silent rounding", () => {
    it.each([
      "1.0000000000000000001",
      "0.10000000000000000000000000000001",
      "1.000",
      "5.001",
      "1e1",
      "0.5E+1",
    ])("refuses the JSON amount %s", async (amountText) => {
      const r = await raw(`{"AccountNumberFrom":"${a}","AccountNumberTo":"${b}","Amount":${amountText}}`);
      expect(r.status, r.text).toBe(400);
      expect(fields(r)).toEqual(["Amount"]);
      await unmoved();
    });

    it.each(["1.0000000000000000001", "0.10000000000000000000000000000001"])(
      "refuses the XML amount %s",
      async (amountText) => {
        const r = await xml(`<Amount>${amountText}</Amount>`);
        expect(r.status, r.text).toBe(400);
        expect(fields(r)).toEqual(["Amount"]);
        await unmoved();
      },
    );

    it("refuses a wire amount with a long decimal text", async () => {
      const body = JSON.stringify(wireBody(dda, 1)).replace('"amount":1', '"amount":1.0000000000000000001');
      const r = await c.api("POST", "/v2/payment", { body, headers: { "content-type": "application/json" } });
      expect(r.status).toBe(400);
      expect(fields(r)).toEqual(["amount"]);
      expect((await balanceOf(c, dda)).AVAILBAL).toBe(1000);
    });

    it("refuses a whole-dollar field whose text has a fraction", async () => {
      const r = await c.api("POST", "/v2/account/createsen", {
        body: '{"ExpectedBalance":1.0000000000000000001,"ExpectedIncomingAmtMonth":1,"ExpectedOutgoingAmtMonth":1}',
        headers: { "content-type": "application/json" },
      });
      expect(r.status).toBe(400);
      expect(fields(r)).toEqual(["ExpectedBalance"]);
    });
  });

  describe("no ambiguous bodies", () => {
    it.each([
      ["names that differ in case", `{"AccountNumberFrom":"A","AccountNumberTo":"B","Amount":1,"amount":90}`],
      ["the same name twice", `{"AccountNumberFrom":"A","AccountNumberTo":"B","Amount":1,"Amount":90}`],
      [
        "case-colliding optional names",
        `{"AccountNumberFrom":"A","AccountNumberTo":"B","Amount":1,"SerialNumber1":"x","serialnumber1":"y"}`,
      ],
    ])("refuses %s with a 400 naming the field", async (_label, template) => {
      const text = template.replace('"A"', `"${a}"`).replace('"B"', `"${b}"`);
      const r = await raw(text);
      expect(r.status, r.text).toBe(400);
      expect(fields(r)).toEqual([/serial/i.test(text) ? "SerialNumber1" : "Amount"]);
      await unmoved();
    });

    it("refuses an XML body with an element given twice or in two cases", async () => {
      const twice = await xml("<Amount>1</Amount><Amount>90</Amount>");
      expect(twice.status).toBe(400);
      expect(fields(twice)).toEqual(["Amount"]);
      const cases = await xml("<Amount>1</Amount><amount>90</amount>");
      expect(cases.status).toBe(400);
      expect(fields(cases)).toEqual(["Amount"]);
      await unmoved();
    });

    it("refuses a query parameter given twice", async () => {
      const r = await c.api("GET", `/v2/account/balance?accountNumber=${a}&AccountNumber=${b}`);
      expect(r.status).toBe(400);
      expect(fields(r)).toEqual(["accountNumber"]);
    });
  });

  describe("XML text decoded", () => {
    it("decodes numeric character references, and keeps an escaped ampersand as text", async () => {
      const r = await xml(
        "<Amount>&#49;&#x30;</Amount><AccountFromDescription2>&#65;&#x42;C &amp;#68; &lt;ok&gt;</AccountFromDescription2>",
      );
      expect(r.status, r.text).toBe(200);
      expect((await balanceOf(c, b)).AVAILBAL).toBe(10);
      const h = await c.api("GET", "/v2/account/history", { query: { accountNumber: a } });
      const debit = h.json.ResponseData[0].TRANSACTION.find((t: { DRCRFLAG: string }) => t.DRCRFLAG === "D");
      expect(debit.TRANDESCS).toBe("ABC &#68; <ok>");
      // Put the money back so that the other tests see the opening balances.
      await c.api("POST", "/v2/account/transfersen", { body: transferBody(b, a, 10) });
    });

    it("still refuses entities other than the five XML defines", async () => {
      const r = await xml("<Amount>1</Amount><AccountFromDescription2>&nbsp;</AccountFromDescription2>");
      expect(r.status).toBe(400);
      expect(fields(r)).toEqual(["body"]);
      await unmoved();
    });
  });

  describe("no hidden text", () => {
    it.each([
      ["right-to-left override", "\u202e"],
      ["left-to-right embedding", "\u202a"],
      ["first strong isolate", "\u2068"],
      ["pop directional isolate", "\u2069"],
      ["zero-width space", "\u200b"],
      ["byte-order mark", "\ufeff"],
      ["soft hyphen", "\u00ad"],
      ["line separator", "\u2028"],
    ])("refuses a %s in every text field", async (_label, ch) => {
      for (const [field, value] of [
        ["AccountFromDescription2", `Payroll${ch}gpj.exe`],
        ["AccountNumberTo", `${b}${ch}`],
        ["SerialNumber1", `INV${ch}1`],
      ] as const) {
        const r = await c.api("POST", "/v2/account/transfersen", {
          body: { ...transferBody(a, b, 1), [field]: value },
        });
        expect(r.status, `${field}: ${r.text}`).toBe(400);
        expect(fields(r)).toEqual([field]);
      }
      const p = await c.api("POST", "/v2/payment", {
        body: wireBody(dda, 1, { beneficiary_name: `KITT${ch} M` }),
      });
      expect(p.status).toBe(400);
      expect(fields(p)).toEqual(["beneficiary_name"]);
      const s = await c.api("POST", "/v2/account/createsen", {
        body: {
          ExpectedBalance: 1,
          ExpectedIncomingAmtMonth: 1,
          ExpectedOutgoingAmtMonth: 1,
          AltTitleLine1: `Acme${ch}`,
        },
      });
      expect(s.status).toBe(400);
      expect(fields(s)).toEqual(["AltTitleLine1"]);
      const w = await c.api("POST", "/v2/webhooks/register", {
        body: { AccountNumber: a, Emails: "ops@example.com", Description: `alerts${ch}` },
      });
      expect(w.status).toBe(400);
      expect(fields(w)).toEqual(["Description"]);
      await unmoved();
      expect((await balanceOf(c, dda)).AVAILBAL).toBe(1000);
    });

    it("refuses a bidirectional control written as an XML character reference", async () => {
      const r = await xml(
        "<Amount>1</Amount><AccountFromDescription2>Acme&#x202E;</AccountFromDescription2>",
      );
      expect(r.status).toBe(400);
      expect(fields(r)).toEqual(["AccountFromDescription2"]);
      await unmoved();
    });

    it("refuses one in a query value", async () => {
      const r = await c.api("GET", "/v2/account/balance", { query: { accountNumber: `${a}\u202e` } });
      expect(r.status).toBe(400);
      expect(fields(r)).toEqual(["accountNumber"]);
    });
  });
});
