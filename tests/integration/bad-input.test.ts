import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import {
  balanceOf,
  newCustomer,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
} from "../helpers/bank.ts";

let bank: TestBank;
let c: TestCustomer;
let a: string;
let b: string;

beforeAll(async () => {
  bank = await startTestBank();
  c = await newCustomer(bank, "Careless Client Co");
  a = await c.account("SEN", 100);
  b = await c.account("SEN", 0);
});
afterAll(() => bank?.close());

async function expectNothingMoved() {
  expect((await balanceOf(c, a)).AVAILBAL).toBe(100);
  expect((await balanceOf(c, b)).AVAILBAL).toBe(0);
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  c.api("POST", "/v2/account/transfersen", { body, headers });

describe("bad input gets a 400 naming the field and changes nothing", () => {
  it.each([
    ["Amount as text", { Amount: "ten" }, "Amount"],
    ["Amount as a numeric string", { Amount: "10" }, "Amount"],
    ["Amount with three decimals", { Amount: 1.005 }, "Amount"],
    ["Amount negative", { Amount: -5 }, "Amount"],
    ["Amount zero", { Amount: 0 }, "Amount"],
    ["Amount over 13 characters", { Amount: 12345678901.25 }, "Amount"],
    ["Amount in exponent form", { Amount: 1e21 }, "Amount"],
    ["Amount null", { Amount: null }, "Amount"],
    ["account number over 20 characters", { AccountNumberFrom: "1".repeat(21) }, "AccountNumberFrom"],
    ["account number as a number", { AccountNumberTo: 1234567890 }, "AccountNumberTo"],
    ["account number with a NUL", { AccountNumberTo: "12\u000034" }, "AccountNumberTo"],
    [
      "description with an escape sequence",
      { AccountFromDescription3: "\u001b[2J" },
      "AccountFromDescription3",
    ],
    [
      "description over 40 characters",
      { AccountFromDescription2: "x".repeat(41) },
      "AccountFromDescription2",
    ],
    ["serial number over 15 characters", { SerialNumber1: "S".repeat(16) }, "SerialNumber1"],
    ["SequenceNumber with 9 digits", { SequenceNumber: 123456789 }, "SequenceNumber"],
    ["SequenceNumber fractional", { SequenceNumber: 1.5 }, "SequenceNumber"],
  ])("%s", async (_label, patch, field) => {
    const r = await post({ ...transferBody(a, b, 1), ...patch });
    expect(r.status).toBe(400);
    expect(r.json.statusCode).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
    await expectNothingMoved();
  });

  it("names every missing required field", async () => {
    const r = await post({});
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "AccountNumberFrom",
      "AccountNumberTo",
      "Amount",
    ]);
  });

  it.each([
    ["truncated JSON", '{"AccountNumberFrom": "1'],
    ["a JSON array", "[1,2,3]"],
    ["a JSON string", '"hello"'],
  ])("refuses %s", async (_label, text) => {
    const r = await c.api("POST", "/v2/account/transfersen", {
      body: text,
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe("body");
  });

  it("refuses a missing body", async () => {
    const r = await c.api("POST", "/v2/account/transfersen");
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe("body");
  });

  it("refuses malformed XML", async () => {
    const r = await c.api("POST", "/v2/account/transfersen", {
      xml: "<T><Amount>1</T>",
      headers: { accept: "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe("body");
  });

  it("refuses an XML entity-expansion bomb at once", async () => {
    const levels = Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join(
      "",
    );
    const bomb = `<?xml version="1.0"?><!DOCTYPE T [<!ENTITY l0 "boom">${levels}]><T><AccountNumberFrom>&l10;</AccountNumberFrom></T>`;
    const r = await c.api("POST", "/v2/account/transfersen", {
      xml: bomb,
      headers: { accept: "application/json" },
    });
    expect(r.status).toBe(400);
    // Refused at the declaration: no field was read, so no other problem is reported.
    expect(r.json.errors).toHaveLength(1);
    expect(r.json.errors[0].message).toMatch(/DOCTYPE/);
    await expectNothingMoved();
  });

  it("refuses an external entity", async () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE T [<!ENTITY x SYSTEM "file:///etc/passwd">]><T><AccountNumberFrom>&x;</AccountNumberFrom></T>';
    const r = await c.api("POST", "/v2/account/transfersen", {
      xml: xxe,
      headers: { accept: "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.text).not.toContain("root:");
  });

  it("refuses a body over 1 MiB with a 400 without reading it all", async () => {
    const big = JSON.stringify({
      ...transferBody(a, b, 1),
      AccountFromDescription2: "x".repeat(2 * 1024 * 1024),
    });
    const r = await post(big).catch((e: Error) => ({ status: -1, json: { message: e.message } }) as never);
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toEqual({ field: "body", message: expect.stringMatching(/1048576 bytes/) });
    // The rest is not read: the connection is closed after the answer.
    expect(r.headers.get("connection")).toBe("close");
    await expectNothingMoved();
  });

  it("does not hang on a client that declares a body and never sends it", async () => {
    const { port } = new URL(bank.url);
    const answer = await new Promise<string>((resolve) => {
      const s = net.connect(Number(port), "127.0.0.1", () => {
        s.write(
          `POST /v2/account/transfersen HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n${BANK_HEADERS.subscriptionKey}: ${c.key}\r\nAuthorization: ${c.token}\r\n\r\n`,
        );
      });
      let data = "";
      s.on("data", (d) => {
        data += d.toString();
      });
      s.on("close", () => resolve(data));
      s.on("error", () => resolve(data));
      setTimeout(() => {
        s.destroy();
        resolve(data);
      }, 3000);
    });
    expect(answer).toMatch(/^HTTP\/1.1 400/);
  });

  it("answers 404 for unknown paths and 405 for wrong methods, in the gateway shape", async () => {
    const r404 = await c.api("GET", "/v2/nope");
    expect(r404.status).toBe(404);
    expect(r404.json.statusCode).toBe(404);
    const r405 = await c.api("DELETE", "/v2/account/list");
    expect(r405.status).toBe(405);
  });

  it("never answers 500 to a fuzzed body", async () => {
    const values = [
      null,
      true,
      0,
      -1,
      1e308,
      "",
      "x".repeat(50),
      [],
      {},
      [1],
      { a: 1 },
      "1.001",
      Number.MAX_SAFE_INTEGER,
    ];
    const fields = [
      "AccountNumberFrom",
      "AccountNumberTo",
      "Amount",
      "SequenceNumber",
      "SerialNumber1",
      "AccountToDescription7",
    ];
    for (const f of fields) {
      for (const v of values) {
        const r = await post({ ...transferBody(a, b, 1), [f]: v });
        expect(r.status, `${f}=${JSON.stringify(v)}`).toBeLessThan(500);
      }
    }
  });
});

describe("meta", () => {
  it("answers /healthz, publishes OpenAPI 3.1 and a readable reference", async () => {
    expect((await fetch(`${bank.url}/healthz`)).status).toBe(200);
    const doc = await (await fetch(`${bank.url}/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    for (const p of [
      "/v2/access/token",
      "/v2/account/list",
      "/v2/account/balance",
      "/v2/account/cashmanagerbalance",
      "/v2/account/createsen",
      "/v2/account/transfersen",
      "/v2/account/history",
      "/v2/account/extendedhistory",
      "/v2/account/wiresummary",
      "/v2/payment",
      "/v2/payment/backup",
      "/v2/webhooks/register",
      "/v2/webhooks/get",
      "/v2/webhooks/delete",
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    const transfer = doc.paths["/v2/account/transfersen"].post;
    expect(
      transfer.requestBody.content["application/json"].schema.properties.AccountFromDescription2.maxLength,
    ).toBe(40);
    const html = await (await fetch(`${bank.url}/docs`)).text();
    expect(html).toContain("<h1>Banking API Service v2</h1>");
    expect(html).toContain("/v2/account/transfersen");
  });
});
