// A wire's account number is digits alone, or an IBAN whose check digits hold; a bank routing id
// is digits, a SWIFT BIC or an IBAN. A hyphen, a space, a full-width digit, a letter from another
// script, or a Latin letter outside an IBAN (an O for a 0) would make the number an approver reads
// differ from the one the bank is sent. One rule for both programs (lib/bank-api/rules.ts): the
// bank refuses it with a 400 naming the field, and so does the dashboard's wire form, which takes
// an IBAN typed in groups of four, or in small letters, and keeps it without spaces, in capitals.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { newCustomer, type TestCustomer, wireBody } from "../helpers/bank.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser, wireForm } from "../helpers/routes.ts";

let world: RouteWorld;
let c: TestCustomer;
let dda: string;
let mine: string;
let preparer: UserRow;

beforeAll(async () => {
  world = await openRouteWorld("wire-account-numbers", { customer: "Account Number Rules Co" });
  c = await newCustomer(world.bank, "Bank Side Co");
  dda = await c.account("DDA", 10_000);
  mine = await world.customer.account("DDA", 10_000);
  preparer = await testUser(world.db, "preparer", "prep@numbers.example", "Prep");
}, 180_000);

afterAll(async () => {
  await world?.close();
});

const BAD_NUMBERS = [
  "1234-5678",
  "1234 5678",
  "1234.5678",
  "\uff11\uff12\uff13\uff14\uff15", // full-width digits
  "12\u0417456", // a Cyrillic letter
  "\u0661\u0662\u0663\u0664", // Arabic-Indic digits
  "1234O678", // a letter O among digits
  "10000000I", // a letter I among digits
  "ACCT00042", // letters that are no IBAN
  "DE89370400440532013001", // an IBAN whose check digits do not hold
];

describe("the bank", () => {
  it.each(
    BAD_NUMBERS.flatMap((n) => [
      [{ beneficiary_account_number: n }, "beneficiary_account_number"],
      [{ intermediary_bank_account_number: n }, "intermediary_bank_account_number"],
      [{ intermediary_bank_routing_id: n }, "intermediary_bank_routing_id"],
      [{ beneficiary_bank_routing_id: n }, "beneficiary_bank_routing_id"],
    ]),
  )("refuses %j with a 400 naming %s", async (patch, field) => {
    const r = await c.api("POST", "/v2/payment", { body: wireBody(dda, 1, patch) });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("refuses an IBAN in small letters: the bank is sent capitals", async () => {
    const r = await c.api("POST", "/v2/payment", {
      body: wireBody(dda, 1, { beneficiary_account_number: "de89370400440532013000" }),
    });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual(["beneficiary_account_number"]);
  });

  it("takes routing ids of digits or a BIC", async () => {
    for (const id of ["021000021", "DEUTDEFF", "DEUTDEFF500", "123456"]) {
      const r = await c.api("POST", "/v2/payment", {
        body: wireBody(dda, 1, { beneficiary_bank_routing_id: id, intermediary_bank_routing_id: id }),
      });
      expect(r.status, `${id}: ${JSON.stringify(r.json)}`).toBe(200);
    }
  });

  it("takes account numbers of digits, and an IBAN", async () => {
    for (const n of ["987654321", "DE89370400440532013000", "GB82WEST12345698765432"]) {
      const r = await c.api("POST", "/v2/payment", {
        body: wireBody(dda, 1, { beneficiary_account_number: n }),
      });
      expect(r.status, n).toBe(200);
    }
  });
});

describe("the dashboard's wire form", () => {
  const send = (over: Record<string, unknown>) =>
    invoke(() => import("../../app/api/wires/route.ts"), "POST", "/api/wires", {
      as: preparer,
      body: wireForm(mine, { idempotencyKey: randomUUID(), ...over }),
    });

  it("refuses an account number that is not letters and digits, naming the field", async () => {
    for (const n of BAD_NUMBERS.filter((n) => n !== "1234 5678")) {
      const r = await send({ beneficiary_account_number: n });
      expect(r.status, n).toBe(400);
      expect(r.json.error.fields.map((f: { field: string }) => f.field)).toContain(
        "beneficiary_account_number",
      );
    }
  });

  it("keeps an IBAN typed in groups of four without its spaces", async () => {
    const r = await send({
      beneficiary_account_number: "DE89 3704 0044 0532 0130 00",
      beneficiary_bank_type: "SWIFT",
      beneficiary_bank_routing_id: "DEUTDEFF500",
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.draft.request.beneficiary_account_number).toBe("DE89370400440532013000");
  });

  it("writes an IBAN typed in small letters in capitals", async () => {
    const r = await send({ beneficiary_account_number: "gb82 west 1234 5698 7654 32" });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.draft.request.beneficiary_account_number).toBe("GB82WEST12345698765432");
  });
});
