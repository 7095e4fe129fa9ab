// The approval policy on the paths that move money, through the route handlers against the real
// bank: a preparer's SEN transfers sent alone stop at the default daily total (a small transfer
// past it becomes a draft that says why), and the release dialog's draft names the policy applied.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

let world: RouteWorld;
let db: DashboardDb;
let sen1: string;
let sen2: string;
let preparer: UserRow;

const mod = {
  transfers: () => import("../../app/api/transfers/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
};

beforeAll(async () => {
  world = await openRouteWorld("approval-policy", { customer: "Policy Works Co" });
  ({ db } = world);
  sen1 = await world.customer.account("SEN", 3_000_000);
  sen2 = await world.customer.account("SEN", 10);
  preparer = await testUser(db, "preparer", "prep@policy.example", "Prep");
}, 180_000);

afterAll(async () => {
  await world?.close();
});

const transfer = (as: UserRow, amount: string) =>
  invoke(mod.transfers, "POST", "/api/transfers", {
    as,
    body: { idempotencyKey: randomUUID(), AccountNumberFrom: sen1, AccountNumberTo: sen2, Amount: amount },
  });

describe("the default policy's daily total", () => {
  it("sends a preparer's SEN transfers alone up to $1,000,000.00 a day, then makes even $1.00 a draft that says why", async () => {
    for (let i = 0; i < 4; i++) {
      const r = await transfer(preparer, "250,000.00");
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.json.outcome).toBe("completed");
    }
    const small = await transfer(preparer, "1.00");
    expect(small.status).toBe(200);
    expect(small.json.outcome).toBe("draft");
    expect(small.json.draft).toMatchObject({
      approvalsRequired: 1,
      approvalPolicy: "Over the daily total of $1,000,000.00 for one preparer: 1 approver",
    });
    // Another preparer has their own total, but the account's ($5,000,000.00) still has room.
    const other = await testUser(db, "preparer", "other@policy.example", "Other");
    expect((await transfer(other, "1.00")).json.outcome).toBe("completed");
  });

  it("names the policy that applied on a wire's draft", async () => {
    const dda = await world.customer.account("DDA", 10_000);
    const r = await invoke(mod.wires, "POST", "/api/wires", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: dda,
        amount: "1,000,000.01",
        beneficiary_name: "Policy Payee",
        beneficiary_account_number: "990001",
        beneficiary_address1: "1 Rule Row",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.draft).toMatchObject({
      approvalsRequired: 2,
      approvalPolicy: "Wires over $1,000,000.00: 2 approvers",
    });
  });
});
