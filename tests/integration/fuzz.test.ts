// No client input ever gets a 500: every endpoint of the contract, fed random values for its
// own field names (and some names it does not know), answers below 500 and promptly.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import type { UserRow } from "../../lib/auth/users.ts";
import { type EndpointDef, endpoints } from "../../lib/bank-api/endpoints.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { setBankClient } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { setLiveHub } from "../../lib/live/hub.ts";
import {
  newCustomer,
  sandboxCustomer,
  startTestBank,
  type TestBank,
  type TestCustomer,
} from "../helpers/bank.ts";
import { cookieFor, openTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

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

  it("refuses bidirectional and other invisible format characters, fillers and special spaces in every text field", async () => {
    const before = await balance(to);
    const hidden = fc.constantFrom(
      // Format characters: bidirectional controls, zero-width characters, marks, the byte-order mark.
      ..."\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200e\u200f\u2060\ufeff\u00ad\u061c\u2028",
      // Blanks that read as nothing or as a space: Hangul fillers, the braille blank, the combining
      // grapheme joiner, variation selectors, a combining overlay and an enclosing mark, NBSP, the
      // ideographic and other special spaces, the paragraph separator.
      ..."\u3164\uffa0\u115f\u1160\u2800\u034f\ufe0f\ufe00\u0336\u20dd\u00a0\u3000\u2009\u202f\u2029",
      "\u{e0100}",
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
      { numRuns: 60 },
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

// Hostile input to every endpoint of the contract and every dashboard route handler: wrong types;
// huge, negative, fractional-cent and non-finite amounts; unicode and very long strings; deep
// nesting; XML bombs and external entities to the bank's XML parser; wrong content types. Each
// answer is below 500 and arrives within HANG_MS, and a refused request (4xx) writes nothing: a
// digest of the ledger (bank) or of the audit log and the dashboard's tables is the same before
// and after it. FUZZ_CASES sets the number of cases, spread over the endpoints (a few thousand
// in `npm test`; a full run takes 100,000 or more).
const FUZZ_CASES = Number(process.env.FUZZ_CASES || 2000);
const HANG_MS = 2000;

/** Number tokens JSON.stringify cannot write: non-finite, beyond double range, fractional cents, odd spellings. */
const numberToken = fc.constantFrom(
  "NaN",
  "Infinity",
  "-Infinity",
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "0.001",
  "1.005",
  "-5.00",
  "0.1e1",
  "1E2",
  "0x10",
  "01",
  "9".repeat(400),
  "123456789012345.67",
  "9007199254740993",
  "-9007199254740993",
);
const hostileScalar = fc.oneof(
  scalar,
  fc.constantFrom(
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 53 + 1,
    -0.01,
    0.005,
  ),
  fc.double(),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => "\u00e9".repeat(n)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  fc.array(hostileScalar, { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileScalar, { maxKeys: 3, noNullPrototype: true }),
);

/** A body's text: JSON of generated members (some with raw number tokens), or something that is not a body at all. */
const bodyText = (names: string[]) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .dictionary(fc.constantFrom(...names, "Junk"), hostileValue, { maxKeys: 8, noNullPrototype: true })
        .map((o) => JSON.stringify(o)),
    },
    {
      weight: 3,
      arbitrary: fc
        .array(
          fc.tuple(
            fc.constantFrom(...names, "Junk"),
            fc.oneof(
              numberToken,
              hostileValue.map((v) => JSON.stringify(v) ?? "null"),
            ),
          ),
          { maxLength: 6 },
        )
        .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 60_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 30_000 }).map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "null",
        "[]",
        "true",
        '"text"',
        "{",
        '{"a":1,}',
        "\u0000",
        "\ufeff{}",
        "{}".repeat(1000),
      ),
    },
  );

/** XML bodies: the contract's names as elements, entity bombs, external entities, malformed markup. */
const xmlText = (names: string[]) =>
  fc.oneof(
    fc
      .array(
        fc.tuple(
          fc.constantFrom(...names, "Junk"),
          fc.oneof(
            numberToken,
            hostileScalar.map((v) => String(v)),
          ),
        ),
        { maxLength: 6 },
      )
      .map(
        (members) =>
          `<R>${members.map(([k, v]) => `<${k}>${v.replace(/[<&]/g, (c) => (c === "<" ? "&lt;" : "&amp;"))}</${k}>`).join("")}</R>`,
      ),
    fc.constantFrom(
      // Billion laughs.
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;"><!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;"><!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]><R><AccountNumber>&lol9;</AccountNumber></R>`,
      // External entities: a file, a URL, a parameter entity.
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><R><AccountNumber>&xxe;</AccountNumber></R>`,
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "http://127.0.0.1:9/x">]><R><AccountNumber>&xxe;</AccountNumber></R>`,
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><R/>`,
      `<!DOCTYPE r SYSTEM "file:///etc/passwd"><R/>`,
      // Quadratic blow-up: one big entity used many times.
      `<!DOCTYPE r [<!ENTITY a "${"a".repeat(50_000)}">]><R><Description>${"&a;".repeat(200)}</Description></R>`,
      `<R><R><R>${"<R>".repeat(20_000)}</R>`,
      `<R ${Array.from({ length: 5000 }, (_, i) => `a${i}="1"`).join(" ")}/>`,
      "<R><![CDATA[<x>]]></R>",
      "<R>&#0;</R>",
      "<R>&#x110000;</R>",
      "not xml at all",
      "<?xml version='1.0' encoding='UTF-7'?><R/>",
    ),
  );

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "application/xml",
  "text/xml",
  "application/soap+xml",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
];

/** The bank's state a refused request must leave alone: money, entries, payments, webhooks, outbox, keys. */
async function bankDigest(b: TestBank): Promise<string> {
  const [row] = await b.running.bank.db.query<{ d: string }>(
    `SELECT concat_ws(':',
       (SELECT count(*) FROM ledger_entries), (SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries),
       (SELECT coalesce(sum(available_cents), 0) FROM accounts), (SELECT coalesce(sum(current_cents), 0) FROM accounts),
       (SELECT count(*) FROM accounts), (SELECT count(*) FROM payments),
       (SELECT string_agg(status, ',' ORDER BY id) FROM payments), (SELECT count(*) FROM webhooks),
       (SELECT count(*) FROM outbox), (SELECT count(*) FROM idempotency_keys),
       (SELECT count(*) FROM payment_backup_log)) AS d`,
  );
  return row.d;
}

describe("hostile input to every bank endpoint", () => {
  let fuzzBank: TestBank;
  let fc1: TestCustomer;
  let acct: string;
  beforeAll(async () => {
    // Wires stay In-Progress: the digest must not move by itself between a request and its answer.
    fuzzBank = await startTestBank({ env: { BANK_SETTLE_AFTER_SECONDS: "100000000" } });
    fc1 = await newCustomer(fuzzBank, "Hostile Input Co");
    acct = await fc1.account("SEN", 1000);
  });
  afterAll(() => fuzzBank?.close());

  const all = Object.entries(endpoints) as [string, EndpointDef][];
  const perEndpoint = Math.max(5, Math.ceil(FUZZ_CASES / 2 / all.length));
  for (const [name, e] of all) {
    it(`${e.method} ${e.path} (${name}): no 500, no hang, no write when refused`, {
      timeout: 600_000 + perEndpoint * HANG_MS,
    }, async () => {
      const queryNames = fieldNames(e.query);
      const bodyNames = fieldNames(e.body);
      const sendsBody = e.method !== "GET";
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(...queryNames, "junk"),
            fc.oneof(
              hostileScalar.map((v) => String(v)),
              numberToken,
              fc.constantFrom(acct, "2026-11-22", "1", `${acct}\u0000`, "-1", "1.5", "%ZZ"),
            ),
            { maxKeys: 5, noNullPrototype: true },
          ),
          fc.boolean(),
          bodyText(bodyNames.length ? bodyNames : ["x"]),
          xmlText(bodyNames.length ? bodyNames : ["x"]),
          fc.constantFrom(...CONTENT_TYPES),
          fc.record({
            accept: fc.constantFrom(
              undefined,
              "application/xml",
              "text/xml",
              "*/*",
              "text/html",
              "application/json;q=0",
            ),
            idempotency: fc.constantFrom(
              undefined,
              "",
              "not-a-guid",
              "{00000000-0000-0000-0000-000000000000}",
              "x".repeat(5000),
            ),
            traceparent: fc.constantFrom(
              undefined,
              "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
              "junk",
              "00-0-0-0",
            ),
          }),
          async (query, asXml, json, xml, contentType, h) => {
            const headers: Record<string, string> = {
              [BANK_HEADERS.subscriptionKey]: fc1.key,
              Authorization: fc1.token,
            };
            if (h.accept) headers.accept = h.accept;
            if (h.idempotency !== undefined) headers[BANK_HEADERS.idempotencyKey] = h.idempotency;
            if (h.traceparent) headers.traceparent = h.traceparent;
            const body = sendsBody ? (asXml ? xml : json) : undefined;
            if (body !== undefined)
              headers["content-type"] =
                asXml && contentType.includes("json") ? "application/xml" : contentType;
            const u = new URL(e.path, fuzzBank.url);
            for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
            const before = await bankDigest(fuzzBank);
            const res = await fetch(u, {
              method: e.method,
              headers,
              body,
              signal: AbortSignal.timeout(HANG_MS),
            });
            const text = await res.text();
            const what = `${e.method} ${u.pathname}${u.search.slice(0, 200)} ${headers["content-type"] ?? ""} ${String(body).slice(0, 300)} -> ${res.status} ${text.slice(0, 300)}`;
            expect(res.status, what).toBeLessThan(500);
            expect(text, what).not.toMatch(/root:x:0:0/);
            if (res.status >= 400) expect(await bankDigest(fuzzBank), what).toBe(before);
          },
        ),
        { numRuns: perEndpoint },
      );
    });
  }
});

/** Every route handler file under app/ (the API, the receiver, the operations routes), found on disk. */
function routeFiles(): string[] {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../app");
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "route.ts") out.push(p);
    }
  };
  walk(root);
  // next-auth's own handler is its library's, exercised by the sign-in tests.
  return out.filter((f) => !f.includes("[...nextauth]")).sort();
}

/** The dashboard's state a refused request must leave alone. */
async function dashboardDigest(db: DashboardDb): Promise<string> {
  const [row] = await db.query<{ d: string }>(
    `SELECT concat_ws(':',
       (SELECT count(*) FROM audit_log), (SELECT max(id) FROM audit_log),
       (SELECT count(*) FROM payment_drafts), (SELECT coalesce(sum(version), 0) FROM payment_drafts),
       (SELECT count(*) FROM beneficiaries), (SELECT count(*) FROM users),
       (SELECT string_agg(concat_ws(',', role, disabled, password_hash, totp_secret), ';' ORDER BY id) FROM users),
       (SELECT count(*) FROM alert_rules), (SELECT count(*) FROM incoming_wire_decisions),
       (SELECT count(*) FROM incoming_wire_votes), (SELECT count(*) FROM live_events),
       (SELECT count(*) FROM dashboard_settings)) AS d`,
  );
  return row.d;
}

const QUERY_NAMES = [
  "accountNumber",
  "account",
  "from",
  "to",
  "date",
  "day",
  "page",
  "pageSize",
  "cursor",
  "limit",
  "q",
  "search",
  "status",
  "kind",
  "direction",
  "open",
  "sort",
  "action",
  "beginDate",
  "endDate",
  "since",
];

describe("hostile input to every dashboard route handler", () => {
  let dbBank: TestBank;
  let dash: TestDashboardDb;
  let admin: UserRow;
  let viewer: UserRow;
  let sen: string;
  const files = routeFiles();
  beforeAll(async () => {
    dbBank = await startTestBank({ env: { BANK_SETTLE_AFTER_SECONDS: "100000000" } });
    dash = await openTestDashboardDb("fuzz-routes");
    const customer = await sandboxCustomer(dbBank, "Hostile Routes LLC");
    sen = await customer.account("SEN", 500);
    await customer.account("DDA", 500);
    process.env.BANK_API_URL = dbBank.url;
    process.env.BANK_SUBSCRIPTION_KEY = customer.subscriptionKey;
    process.env.BANK_WEBHOOK_SECRET = customer.webhookSecret;
    process.env.NEXTAUTH_SECRET ??= "fuzz-nextauth-secret-0123456789abcdef";
    process.env.NEXTAUTH_URL ??= "http://127.0.0.1:3999";
    admin = await testUser(dash.db, "admin", "fuzz-admin@example.com");
    viewer = await testUser(dash.db, "viewer", "fuzz-viewer@example.com");
  }, 180_000);
  afterAll(async () => {
    setBankClient(undefined);
    setLiveHub(undefined);
    await dash?.close();
    await dbBank?.close();
  });

  const perRoute = Math.max(5, Math.ceil(FUZZ_CASES / 2 / Math.max(1, files.length)));
  for (const file of files) {
    const rel = file.slice(file.indexOf("/app/") + 4).replace(/\/route\.ts$/, "") || "/";
    const paramNames = [...rel.matchAll(/\[(\w+)\]/g)].map((m) => m[1]);
    it(`${rel}: no 500, no hang, no write when refused`, {
      timeout: 600_000 + perRoute * HANG_MS,
    }, async () => {
      const m = (await import(file)) as Record<string, unknown>;
      const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((x) => typeof m[x] === "function");
      expect(methods.length).toBeGreaterThan(0);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...methods),
          fc.array(
            fc.oneof(
              hostileScalar.map((v) => String(v)),
              fc.constantFrom(sen, "00000000-0000-4000-8000-000000000000", "1", "-1", "..", "%2F", "a/b"),
            ),
            { minLength: paramNames.length, maxLength: paramNames.length },
          ),
          fc.dictionary(
            fc.constantFrom(...QUERY_NAMES),
            fc.oneof(
              hostileScalar.map((v) => String(v)),
              numberToken,
              fc.constantFrom(sen, "2026-11-22", ""),
            ),
            { maxKeys: 4, noNullPrototype: true },
          ),
          bodyText([
            "accountNumber",
            "fromAccount",
            "toAccount",
            "amount",
            "amountCents",
            "name",
            "email",
            "role",
            "password",
            "url",
            "description",
            "threshold",
            "reason",
            "version",
            "action",
            "beneficiaryName",
            "memo",
          ]),
          fc.constantFrom(...CONTENT_TYPES),
          fc.constantFrom("admin", "viewer", "none"),
          async (method, paramValues, query, body, contentType, who) => {
            const params = Object.fromEntries(paramNames.map((n, i) => [n, paramValues[i]]));
            const url = new URL(
              rel.replace(/\[(\w+)\]/g, (_, n: string) => encodeURIComponent(params[n])),
              process.env.NEXTAUTH_URL,
            );
            for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
            const headers: Record<string, string> = { origin: url.origin };
            if (who !== "none") headers.cookie = await cookieFor(who === "admin" ? admin : viewer);
            const hasBody = method !== "GET";
            if (hasBody && contentType) headers["content-type"] = contentType;
            const req = new NextRequest(url, { method, headers, body: hasBody ? body : undefined });
            const before = await dashboardDigest(dash.db);
            const handler = m[method] as (
              r: NextRequest,
              c: { params: Promise<Record<string, string>> },
            ) => Promise<Response>;
            let timer: NodeJS.Timeout | undefined;
            const res = await Promise.race([
              handler(req, { params: Promise.resolve(params) }),
              new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS);
              }),
            ]).finally(() => clearTimeout(timer));
            // A live event stream never ends: its status is the answer.
            let text = "";
            if (res.headers.get("content-type")?.includes("event-stream")) await res.body?.cancel();
            else text = await res.text();
            const what = `${method} ${url.pathname}${url.search.slice(0, 200)} as ${who} ${contentType} ${hasBody ? body.slice(0, 300) : ""} -> ${res.status} ${text.slice(0, 300)}`;
            expect(res.status, what).toBeLessThan(500);
            if (res.status >= 400) expect(await dashboardDigest(dash.db), what).toBe(before);
          },
        ),
        { numRuns: perRoute },
      );
    });
  }
});
