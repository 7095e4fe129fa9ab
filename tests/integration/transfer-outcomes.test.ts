// Every result code the transfer's SQL can answer has its meaning in lib/bank-api: the codes are
// read from the database (the `sen_transfer_code` type and the function's own text), never from
// the table under test, so a code added in SQL and forgotten in TypeScript fails here.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_SCHEMA_SOURCE } from "../../bank/db/client.ts";
import { BUSINESS_ERRORS } from "../../lib/bank-api/errors.ts";
import { TRANSFER_OUTCOMES } from "../../lib/bank-api/transfer-outcomes.ts";
import { openMigratedPglite } from "../../lib/server/database.ts";
import { BACKENDS, startTestBank, type TestBank } from "../helpers/bank.ts";
import { bankMigrationsBefore } from "../helpers/databases.ts";

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

describe("SEN transfer answers kept from before the result codes", () => {
  it("replays an Idempotency-Key's stored answer as its code after the upgrade", async () => {
    // The migrations before 0009.
    const { dir, before } = bankMigrationsBefore(9, "bank-upgrade-");
    try {
      const data = path.join(dir, "db");
      const old = await openMigratedPglite(data, before);
      const stored = [
        ["k-ok", { status: "ok", transferId: "SENOLD1", fromAvailable: 1, toAvailable: 2 }, "ok"],
        [
          "k-from",
          { status: "rejected", code: "ACCOUNT_NOT_FOUND", field: "AccountNumberFrom" },
          "from_not_found",
        ],
        ["k-to", { status: "rejected", code: "ACCOUNT_NOT_FOUND", field: "AccountNumberTo" }, "to_not_found"],
        ["k-same", { status: "rejected", code: "SAME_ACCOUNT", field: "AccountNumberTo" }, "same_account"],
        ["k-closed", { status: "rejected", code: "ACCOUNT_CLOSED", field: "AccountNumberTo" }, "to_closed"],
        [
          "k-sen",
          { status: "rejected", code: "ACCOUNT_NOT_SEN", field: "AccountNumberFrom" },
          "from_not_sen",
        ],
        [
          "k-funds",
          { status: "rejected", code: "INSUFFICIENT_FUNDS", field: "Amount" },
          "insufficient_funds",
        ],
      ] as const;
      for (const [key, response] of stored)
        await old.client.query(
          `INSERT INTO idempotency_keys (customer_id, key, endpoint, request_hash, response, created_at)
           VALUES (1, $1, 'transfersen', 'h', $2, now())`,
          [key, JSON.stringify(response)],
        );
      await old.close();

      const upgraded = await openMigratedPglite(data, BANK_SCHEMA_SOURCE);
      try {
        for (const [key, , code] of stored) {
          const record = {
            customer: 1,
            from: "1",
            to: "2",
            cents: 1,
            key,
            hash: "h",
            now: new Date().toISOString(),
          };
          const r = await upgraded.client.query<{ r: Record<string, unknown> }>(
            "SELECT sen_transfer($1::jsonb) AS r",
            [
              JSON.stringify({
                ...record,
                date: "2026-01-02",
                fromDesc: [],
                toDesc: [],
                serial1: "",
                serial2: "",
                id: "X",
              }),
            ],
          );
          expect(r.rows[0].r).toEqual({
            code,
            replay: true,
            ...(code === "ok" ? { transferId: "SENOLD1" } : {}),
          });
        }
      } finally {
        await upgraded.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
