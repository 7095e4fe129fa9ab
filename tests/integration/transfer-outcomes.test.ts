// Every result code the transfer's SQL can answer has its meaning in lib/bank-api: the codes are
// read from the database (the `sen_transfer_code` type and the function's own text), never from
// the table under test, so a code added in SQL and forgotten in TypeScript fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSINESS_ERRORS } from "../../lib/bank-api/errors.ts";
import { TRANSFER_OUTCOMES } from "../../lib/bank-api/transfer-outcomes.ts";
import { BACKENDS, startTestBank, type TestBank } from "../helpers/bank.ts";

describe.each(BACKENDS)("SEN transfer result codes on $name", ({ postgres }) => {
  let bank: TestBank;
  beforeAll(async () => {
    bank = await startTestBank({ postgres });
  });
  afterAll(() => bank?.close());

  it("maps every code of the sen_transfer_code type, and no other", async () => {
    const rows = await bank.running.bank.db.query<{ code: string }>(
      "SELECT unnest(enum_range(NULL::sen_transfer_code))::text AS code",
    );
    const codes = rows.map((r) => r.code);
    expect(codes.length).toBeGreaterThanOrEqual(10);
    expect([...codes].sort()).toEqual(Object.keys(TRANSFER_OUTCOMES).sort());
  });

  it("answers only codes of that type, each mapped to a business code of the catalogue", async () => {
    const rows = await bank.running.bank.db.query<{ src: string }>(
      "SELECT prosrc AS src FROM pg_proc WHERE proname = 'sen_transfer'",
    );
    // One definition: the old thirteen-argument one is gone.
    expect(rows).toHaveLength(1);
    const assigned = [...rows[0].src.matchAll(/v_code := '([a-z_]+)'|'([a-z_]+)'::sen_transfer_code/g)].map(
      (m) => m[1] ?? m[2],
    );
    expect(new Set(assigned).size).toBeGreaterThanOrEqual(10);
    for (const code of assigned) {
      expect(Object.keys(TRANSFER_OUTCOMES)).toContain(code);
      const o = TRANSFER_OUTCOMES[code as keyof typeof TRANSFER_OUTCOMES];
      if (o.kind === "rejected") {
        expect(Object.keys(BUSINESS_ERRORS)).toContain(o.error);
        expect(["AccountNumberFrom", "AccountNumberTo", "Amount"]).toContain(o.field);
      }
    }
  });
});
