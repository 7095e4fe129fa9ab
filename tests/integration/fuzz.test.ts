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
