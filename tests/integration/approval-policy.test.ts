// The approval policy on the paths that move money, through the route handlers against the real
// bank: a preparer's SEN transfers sent alone stop at the default daily total (a small transfer
// past it becomes a draft that says why), the release dialog's draft names the policy applied, and
// a policy set an administrator states applies only once a second administrator approves it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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
  policies: () => import("../../app/api/admin/policies/route.ts"),
  preview: () => import("../../app/api/admin/policies/preview/route.ts"),
  approve: () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
  release: () => import("../../app/api/drafts/[id]/release/route.ts"),
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

  it("previews a lower daily total against the transfers already sent that day, in the order they went", async () => {
    const admin = await testUser(db, "admin", "preview-admin@policy.example", "Preview Admin");
    const current = await invoke(mod.policies, "GET", "/x", { as: admin });
    const set = current.json.set;
    const preview = await invoke(mod.preview, "POST", "/x", {
      as: admin,
      body: { ...set, velocity: { ...set.velocity, perPreparerDailyCents: 50_000_000 } },
    });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    const sen = preview.json.rows.find((r: { rail: string }) => r.rail === "sen");
    // Four transfers of $250,000.00 went alone: with $500,000.00 a day, the third and the fourth
    // would have needed an approver. The $1.00 draft needed one either way; the other preparer's
    // $1.00 is within both totals.
    expect(sen).toMatchObject({ payments: 6, more: 2, fewer: 0 });
    expect(sen.examples[0]).toContain("Over the daily total of $500,000.00 for one preparer: 1 approver");
    // The same set as in force changes nothing.
    const same = await invoke(mod.preview, "POST", "/x", { as: admin, body: set });
    expect(same.json.rows.find((r: { rail: string }) => r.rail === "sen")).toMatchObject({
      more: 0,
      fewer: 0,
    });
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

describe("a policy set an administrator states", () => {
  it("waits for a second administrator, is previewed against the last 30 days, then decides a wire and who may approve it", async () => {
    const admin1 = await testUser(db, "admin", "admin1@policy.example", "Admin One");
    const admin2 = await testUser(db, "admin", "admin2@policy.example", "Admin Two");
    const lead = await testUser(db, "approver", "lead@policy.example", "Lead");
    const other = await testUser(db, "approver", "other-approver@policy.example", "Other Approver");
    const dda = await world.customer.account("DDA", 10_000);
    const wire = async (amount: string, account: string) => {
      const r = await invoke(mod.wires, "POST", "/api/wires", {
        as: preparer,
        body: {
          idempotencyKey: randomUUID(),
          originator_account_number: dda,
          amount,
          beneficiary_name: "Stated Policy Payee",
          beneficiary_account_number: account,
          beneficiary_address1: "2 Rule Row",
          receiving_bank_routing_id: "021000021",
        },
      });
      expect(r.status).toBe(200);
      return r.json.draft;
    };
    const before = await wire("600.00", "990101");
    expect(before.approvalsRequired).toBe(1);

    const current = await invoke(mod.policies, "GET", "/x", { as: admin1 });
    expect(current.status).toBe(200);
    expect(current.json.isDefault).toBe(true);
    const set = {
      policies: [
        ...current.json.set.policies,
        {
          id: "wires-over-500",
          name: "Wires over $500.00",
          when: { rails: ["wire"], aboveCents: 50_000 },
          approvers: 1,
          group: { name: "Treasury leads", userIds: [lead.id] },
        },
      ],
      velocity: current.json.set.velocity,
    };
    const preview = await invoke(mod.preview, "POST", "/x", { as: admin1, body: set });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    const wires = preview.json.rows.find((r: { rail: string }) => r.rail === "wire");
    expect(wires.payments).toBeGreaterThanOrEqual(2);

    const bad = await invoke(mod.policies, "PUT", "/x", {
      as: admin1,
      body: {
        ...set,
        policies: [{ ...set.policies.at(-1), group: { name: "Nobody", userIds: ["no-such-user"] } }],
      },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("policies.0.group.userIds");

    const asked = await invoke(mod.policies, "PUT", "/x", { as: admin1, body: set });
    expect(asked.status, JSON.stringify(asked.json)).toBe(202);
    const changeId = asked.json.requested.id as string;
    // Not in force until a second administrator approves it; its author cannot.
    expect((await wire("600.00", "990102")).approvalsRequired).toBe(1);
    const own = await invoke(mod.approve, "POST", "/x", { as: admin1, params: { id: changeId } });
    expect(own.status).toBe(403);
    const approved = await invoke(mod.approve, "POST", "/x", { as: admin2, params: { id: changeId } });
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);

    const after = await wire("600.00", "990103");
    expect(after).toMatchObject({ approvalsRequired: 1, approvalPolicy: "Wires over $500.00: 1 approver" });
    // Only the group may approve: another approver's vote is refused, a lead's sends it.
    const refused = await invoke(mod.release, "POST", "/x", {
      as: other,
      params: { id: after.id },
      body: { version: 1 },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/not in the group Treasury leads/);
    const sent = await invoke(mod.release, "POST", "/x", {
      as: lead,
      params: { id: after.id },
      body: { version: 1 },
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json.draft.status).toBe("released");
    const now = await invoke(mod.policies, "GET", "/x", { as: admin1 });
    expect(now.json).toMatchObject({ isDefault: false, pending: [] });
  });
});
