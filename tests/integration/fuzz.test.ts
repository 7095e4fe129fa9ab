// No client input ever gets a 500: every endpoint of the contract, fed random values for its
// own field names (and some names it does not know), answers below 500 and promptly.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type EndpointDef, endpoints } from "../../lib/bank-api/endpoints.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { newCustomer, startTestBank, type TestBank, type TestCustomer } from "../helpers/bank.ts";

function fieldNames(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const j = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
  };
  return Object.keys(j.properties ?? {});
}

const scalar = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1.005",
    "2026-02-30",
    "2026-11-22",
    "2026-11-22T10:00:00Z",
    "A",
    "D",
    "approve",
    "ABA",
    "SWIFT",
    "9".repeat(25),
    "%00",
    "<x>",
    "null",
  ),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), scalar, { maxKeys: 2, noNullPrototype: true }),
);

const text = (v: unknown) => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));

let bank: TestBank;
let c: TestCustomer;
let account: string;

beforeAll(async () => {
  bank = await startTestBank();
  c = await newCustomer(bank, "Fuzz Co");
  account = await c.account("SEN", 1000);
});
afterAll(() => bank?.close());

describe("every endpoint under random input", () => {
  for (const [name, e] of Object.entries(endpoints) as [string, EndpointDef][]) {
    if (!e.needsToken) continue;
    it(`${e.method} ${e.path} (${name}) never answers 500`, async () => {
      const queryNames = fieldNames(e.query);
      const bodyNames = fieldNames(e.body);
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(...queryNames, "junk"),
            fc.oneof(
              fc.string({ maxLength: 40 }),
              fc.constantFrom(account, "2026-11-22", "1", "\u0000", `${account}\u0000`),
            ),
            { maxKeys: 5, noNullPrototype: true },
          ),
          fc.dictionary(fc.constantFrom(...bodyNames, "Junk"), value, { maxKeys: 8, noNullPrototype: true }),
          fc.boolean(),
          async (query, body, xml) => {
            if (bodyNames.includes("AccountNumberFrom") || bodyNames.includes("originator_account_number")) {
              // Half the time aim at a real account so that deeper code runs.
              body.AccountNumberFrom ??= account;
              body.originator_account_number ??= account;
            }
            const r = await c.api(e.method, e.path, {
              query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
              ...(e.body
                ? xml
                  ? {
                      xml: `<R>${Object.entries(body)
                        .map(
                          ([k, v]) =>
                            `<${k.replace(/[^A-Za-z_]/g, "") || "x"}>${text(v).replace(/[<&]/g, "")}</${k.replace(/[^A-Za-z_]/g, "") || "x"}>`,
                        )
                        .join("")}</R>`,
                    }
                  : { body }
                : {}),
            });
            expect(
              r.status,
              `${e.method} ${e.path} ${JSON.stringify({ query, body })} -> ${r.text.slice(0, 200)}`,
            ).toBeLessThan(500);
            // Answered through the bank's own pipeline, whatever the input.
            expect(r.headers.get(BANK_HEADERS.requestId)).toMatch(/\S/);
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});

// What real clients and attackers send, generated: each property knows the answer it must get.
describe("generated attacks on a SEN transfer", () => {
  let to: string;
  let other: string;
  beforeAll(async () => {
    to = await c.account("SEN", 0);
    other = await c.account("SEN", 0);
  });

  const balance = async (n: string) =>
    (await c.api("GET", "/v2/account/balance", { query: { accountNumber: n } })).json.ResponseData[0]
      .AVAILBAL as number;
  const raw = (text: string, headers: Record<string, string> = {}) =>
    c.api("POST", "/v2/account/transfersen", {
      body: text,
      headers: { "content-type": "application/json", ...headers },
    });
  const fieldsOf = (r: { json: { errors?: { field: string }[] } }) =>
    (r.json.errors ?? []).map((e) => e.field);

  const TRANSFER_NAMES = [
    "AccountNumberFrom",
    "AccountNumberTo",
    "Amount",
    "SerialNumber1",
    "AccountFromDescription2",
  ];
  /** A spelling of `name` that differs from it in case alone. */
  const caseVariant = (name: string) =>
    fc
      .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
      .map((flips) => [...name].map((ch, i) => (flips[i] ? ch.toUpperCase() : ch.toLowerCase())).join(""))
      .filter((v) => v !== name);
  const member = (name: string, value: string) => `${JSON.stringify(name)}:${value}`;
  const baseMembers = () => [
    member("AccountNumberFrom", JSON.stringify(account)),
    member("AccountNumberTo", JSON.stringify(to)),
    member("Amount", "0.01"),
  ];

  it("refuses a body with two names that differ only in case, naming the field", async () => {
    const before = await balance(to);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TRANSFER_NAMES).chain((n) => fc.tuple(fc.constant(n), caseVariant(n))),
        fc.constantFrom('"x"', "1", "null", `"${to}"`),
        fc.boolean(),
        async ([name, variant], value, variantFirst) => {
          const members = baseMembers();
          const extra = member(variant, value);
          if (!members.some((m) => m.startsWith(`"${name}"`))) members.push(member(name, '"y"'));
          if (variantFirst) members.unshift(extra);
          else members.push(extra);
          const r = await raw(`{${members.join(",")}}`);
          expect(r.status, r.text).toBe(400);
          expect(fieldsOf(r)).toContain(name);
        },
      ),
      { numRuns: 25 },
    );
    expect(await balance(to)).toBe(before);
  });

  it("refuses a body with one name twice, naming it", async () => {
    const before = await balance(to);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TRANSFER_NAMES),
        fc.constantFrom('"x"', "1", "0.02", "null"),
        fc.nat(3),
        async (name, value, at) => {
          const members = baseMembers();
          const copies = members.some((m) => m.startsWith(`"${name}"`)) ? 1 : 2;
          for (let k = 0; k < copies; k++)
            members.splice(Math.min(at, members.length), 0, member(name, value));
          const r = await raw(`{${members.join(",")}}`);
          expect(r.status, r.text).toBe(400);
          expect(fieldsOf(r)).toEqual([name]);
        },
      ),
      { numRuns: 25 },
    );
    expect(await balance(to)).toBe(before);
  });

  it("judges an amount by its decimal text: two decimals move exact cents, more are refused", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 }),
        fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 40 }),
        fc.boolean(),
        async (whole, digits, xml) => {
          const text = `${whole}.${digits}`;
          const cents = whole * 100 + Number(digits.padEnd(2, "0").slice(0, 2));
          const before = await balance(to);
          const r = xml
            ? await c.api("POST", "/v2/account/transfersen", {
                xml: `<T><AccountNumberFrom>${account}</AccountNumberFrom><AccountNumberTo>${to}</AccountNumberTo><Amount>${text}</Amount></T>`,
                headers: { accept: "application/json" },
              })
            : await raw(`{${baseMembers().slice(0, 2).join(",")},"Amount":${text}}`);
          if (digits.length > 2) {
            expect(r.status, `${text}: ${r.text}`).toBe(400);
            expect(fieldsOf(r)).toEqual(["Amount"]);
            expect(await balance(to)).toBe(before);
          } else if (cents === 0) {
            expect(r.status).toBe(400);
          } else {
            expect(r.status, `${text}: ${r.text}`).toBe(200);
            expect(Math.round((await balance(to)) * 100)).toBe(Math.round(before * 100) + cents);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it("decodes numeric character references in XML, in decimal and in hexadecimal", async () => {
    const encode = (ch: string, how: number) =>
      how === 0
        ? ch
        : how === 1
          ? `&#${ch.codePointAt(0)};`
          : `&#x${(ch.codePointAt(0) as number).toString(16)};`;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 999 }),
        fc.array(fc.nat(2), { minLength: 12, maxLength: 12 }),
        fc.string({ unit: fc.constantFrom(..."ABCxyz 09-/"), maxLength: 10 }),
        async (cents, hows, memo) => {
          const amount = (cents / 100).toFixed(2);
          const before = await balance(to);
          const r = await c.api("POST", "/v2/account/transfersen", {
            xml: `<T><AccountNumberFrom>${account}</AccountNumberFrom><AccountNumberTo>${[...to].map((ch, i) => encode(ch, hows[i % 12])).join("")}</AccountNumberTo><Amount>${[...amount].map((ch, i) => encode(ch, hows[(i + 3) % 12])).join("")}</Amount><AccountFromDescription2>${[...memo].map((ch, i) => encode(ch, hows[(i + 5) % 12])).join("")}</AccountFromDescription2></T>`,
            headers: { accept: "application/json" },
          });
          expect(r.status, r.text).toBe(200);
          expect(Math.round((await balance(to)) * 100)).toBe(Math.round(before * 100) + cents);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("refuses bidirectional and other invisible format characters in every text field", async () => {
    const before = await balance(to);
    const hidden = fc.constantFrom(
      ..."\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200e\u200f\u2060\ufeff\u00ad\u061c\u2028",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          "AccountNumberFrom",
          "AccountNumberTo",
          "SerialNumber1",
          "SerialNumber2",
          "AccountFromDescription2",
          "AccountToDescription7",
        ),
        hidden,
        fc.nat(8),
        fc.boolean(),
        async (field, ch, at, asReference) => {
          const base: Record<string, string> = {
            AccountNumberFrom: account,
            AccountNumberTo: to,
            SerialNumber1: "INV",
            SerialNumber2: "PO",
            AccountFromDescription2: "memo",
            AccountToDescription7: "line",
          };
          const v = base[field];
          const i = Math.min(at, v.length);
          if (asReference) {
            const ref = `&#x${(ch.codePointAt(0) as number).toString(16)};`;
            const members = Object.entries({ ...base, [field]: `${v.slice(0, i)}${ref}${v.slice(i)}` })
              .map(([k, x]) => `<${k}>${x}</${k}>`)
              .join("");
            const r = await c.api("POST", "/v2/account/transfersen", {
              xml: `<T>${members}<Amount>0.01</Amount></T>`,
              headers: { accept: "application/json" },
            });
            expect(r.status, r.text).toBe(400);
            expect(fieldsOf(r)).toEqual([field]);
          } else {
            const r = await c.api("POST", "/v2/account/transfersen", {
              body: { ...base, Amount: 0.01, [field]: `${v.slice(0, i)}${ch}${v.slice(i)}` },
            });
            expect(r.status, r.text).toBe(400);
            expect(fieldsOf(r)).toEqual([field]);
          }
        },
      ),
      { numRuns: 30 },
    );
    expect(await balance(to)).toBe(before);
  });

  it("acts once for one GUID in any spelling, and refuses what is not a GUID", async () => {
    const spell = (guid: string, how: number) => {
      const cased = how & 1 ? guid.toUpperCase() : guid;
      const plain = how & 2 ? cased.replaceAll("-", "") : cased;
      return how & 4 ? `{${plain}}` : how & 8 ? `(${plain})` : plain;
    };
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.nat(15), fc.nat(15), async (guid, first, second) => {
        const before = await balance(other);
        const answers = [];
        for (const how of [first, second]) {
          const r = await raw(
            `{"AccountNumberFrom":"${account}","AccountNumberTo":"${other}","Amount":0.01}`,
            {
              [BANK_HEADERS.idempotencyKey]: spell(guid, how),
            },
          );
          expect(r.status, r.text).toBe(200);
          answers.push(r.json.MESSAGE[0].MESSAGETEXT);
        }
        expect(answers[1]).toBe(answers[0]);
        expect(Math.round((await balance(other)) * 100)).toBe(Math.round(before * 100) + 1);
      }),
      { numRuns: 20 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uuid().chain((g) =>
          fc.oneof(
            fc.constant(g.slice(1)),
            fc.constant(`${g}0`),
            fc.constant(`{${g}`),
            fc.constant(g.replace("-", "")),
            fc.constant(g.replace(/[0-9a-f]/, "g")),
            fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ""),
          ),
        ),
        async (key) => {
          const r = await raw(
            `{"AccountNumberFrom":"${account}","AccountNumberTo":"${other}","Amount":0.01}`,
            {
              [BANK_HEADERS.idempotencyKey]: key,
            },
          );
          expect(r.status, `${JSON.stringify(key)}: ${r.text}`).toBe(400);
          expect(fieldsOf(r)).toEqual([BANK_HEADERS.idempotencyKey]);
        },
      ),
      { numRuns: 20 },
    );
  });
});
