// Property: whatever sequence of deposits and transfers arrives, the bank's balances equal a
// simple model, never go negative, and every account's history adds up to its balance.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BACKENDS,
  newCustomer,
  sandbox,
  startTestBank,
  type TestBank,
  type TestCustomer,
  transferBody,
} from "../helpers/bank.ts";

type Op =
  | { kind: "deposit"; to: number; cents: number }
  | { kind: "transfer"; from: number; to: number; cents: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("deposit" as const),
    to: fc.integer({ min: 0, max: 3 }),
    cents: fc.integer({ min: 1, max: 50_000 }),
  }),
  fc.record({
    kind: fc.constant("transfer" as const),
    from: fc.integer({ min: 0, max: 3 }),
    to: fc.integer({ min: 0, max: 3 }),
    cents: fc.integer({ min: 1, max: 80_000 }),
  }),
);

const dollars = (cents: number) =>
  Number(`${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`);

describe.each(BACKENDS)("ledger invariants on $name", ({ postgres }) => {
  let bank: TestBank;
  let c: TestCustomer;

  beforeAll(async () => {
    bank = await startTestBank({ postgres });
    c = await newCustomer(bank, "Property Co");
  });
  afterAll(() => bank?.close());

  it("matches the model for random sequences of deposits and transfers", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const accounts = [];
        for (let i = 0; i < 4; i++) accounts.push(await c.account("SEN"));
        const model = [0, 0, 0, 0];
        for (const o of ops) {
          if (o.kind === "deposit") {
            await sandbox(bank, "POST", "/sandbox/deposits", {
              accountNumber: accounts[o.to],
              amount: dollars(o.cents),
            });
            model[o.to] += o.cents;
          } else {
            const r = await c.api("POST", "/v2/account/transfersen", {
              body: transferBody(accounts[o.from], accounts[o.to], dollars(o.cents)),
            });
            const shouldPass = o.from !== o.to && model[o.from] >= o.cents;
            expect(r.json.ERROR.length === 0).toBe(shouldPass);
            if (shouldPass) {
              model[o.from] -= o.cents;
              model[o.to] += o.cents;
            }
          }
        }
        for (let i = 0; i < 4; i++) {
          const bal = (await c.api("GET", "/v2/account/balance", { query: { accountNumber: accounts[i] } }))
            .json.ResponseData[0];
          expect(Math.round(bal.AVAILBAL * 100)).toBe(model[i]);
          expect(bal.AVAILBAL).toBeGreaterThanOrEqual(0);
          const h = await c.api("GET", "/v2/account/history", {
            query: { accountNumber: accounts[i], displayOrder: "A" },
          });
          let running = 0;
          for (const t of h.json.ResponseData[0].TRANSACTION) {
            running += Math.round(t.TRANAMT * 100) * (t.DRCRFLAG === "C" ? 1 : -1);
            // Each entry carries the available balance right after it.
            expect(Math.round(t.CURRAVAILBAL * 100)).toBe(running);
          }
          expect(running).toBe(model[i]);
        }
      }),
      { numRuns: 12 },
    );
  });
});
