// A vote counts only while its voter may still cast it: an approver who voted and was then demoted
// or disabled no longer counts toward a draft's or an incoming wire's approvals, so the next
// approver's single vote cannot send what needs two. Route handlers against the real bank.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { sandbox, type TestBank } from "../helpers/bank.ts";
import {
  type CountingBankClient,
  invoke,
  openRouteWorld,
  type RouteWorld,
  testUser,
} from "../helpers/routes.ts";

let world: RouteWorld;
let bank: TestBank;
let db: DashboardDb;
let client: CountingBankClient;
let dda: string;
let preparer: UserRow;
let admin: UserRow;

const mod = {
  wires: () => import("../../app/api/wires/route.ts"),
  release: () => import("../../app/api/drafts/[id]/release/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
  user: () => import("../../app/api/admin/users/[id]/route.ts"),
  decide: () => import("../../app/api/incoming-wires/[paymentId]/route.ts"),
  queue: () => import("../../app/api/incoming-wires/route.ts"),
};

beforeAll(async () => {
  world = await openRouteWorld("vote-eligibility", {
    customer: "Eligible Votes Inc",
    bankEnv: { BANK_SETTLE_AFTER_SECONDS: "86400" },
  });
  ({ bank, db } = world);
  client = world.client as CountingBankClient;
  dda = await world.customer.account("DDA", 5_000_000);
  preparer = await testUser(db, "preparer", "prep@votes.example", "Prep");
  admin = await testUser(db, "admin", "admin@votes.example", "Admin");
}, 180_000);

afterAll(async () => {
  await world?.close();
});

/** An administrator demotes the user to viewer and disables them (both apply at once). */
async function demoteAndDisable(u: UserRow) {
  const r = await invoke(mod.user, "PATCH", "/x", {
    as: admin,
    params: { id: u.id },
    body: { role: "viewer", disabled: true },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
}

describe("a vote whose voter lost the right to cast it", () => {
  it("does not count toward a $2,000,000 draft: the next approver's single release sends nothing", async () => {
    const a = await testUser(db, "approver", `a-${randomUUID().slice(0, 8)}@votes.example`, "Approver A");
    const b = await testUser(db, "approver", `b-${randomUUID().slice(0, 8)}@votes.example`, "Approver B");
    const made = await invoke(mod.wires, "POST", "/api/wires", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: dda,
        amount: "2,000,000.00",
        beneficiary_name: "Demoted Vote Payee",
        beneficiary_account_number: "7700123",
        beneficiary_address1: "1 Vote Lane",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(made.status).toBe(200);
    const id = made.json.draft.id as string;
    expect(made.json.draft.approvalsRequired).toBe(2);

    const first = await invoke(mod.release, "POST", "/x", { as: a, params: { id }, body: { version: 1 } });
    expect(first.status).toBe(200);
    expect(first.json.draft.status).toBe("pending");
    await demoteAndDisable(a);
    client.sent = [];

    const second = await invoke(mod.release, "POST", "/x", { as: b, params: { id }, body: { version: 1 } });
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.json.draft.status).toBe("pending");
    expect(second.json.message).toMatch(/Nothing was sent/);
    expect(client.sent.filter((n) => n.startsWith("initiatePayment"))).toEqual([]);

    // The struck vote is shown with why.
    const shown = await invoke(mod.draft, "GET", "/x", { as: b, params: { id } });
    const votes = shown.json.draft.approvals as { email: string; ineligible?: string }[];
    expect(votes.find((v) => v.email === a.email)?.ineligible).toMatch(/disabled|no longer/i);
    expect(votes.find((v) => v.email === b.email)?.ineligible).toBeUndefined();
  });

  it("does not count toward an incoming wire's two-person rule", async () => {
    const a = await testUser(db, "approver", `ia-${randomUUID().slice(0, 8)}@votes.example`, "Approver IA");
    const b = await testUser(db, "approver", `ib-${randomUUID().slice(0, 8)}@votes.example`, "Approver IB");
    const w = await sandbox<{ payment_id: string; payment_timestamp: string }>(
      bank,
      "POST",
      "/sandbox/incoming-wires",
      {
        accountNumber: dda,
        amount: 2_000_000,
        originatorName: `ELIGIBLE ${Date.now().toString(36).toUpperCase()}`,
        originatorToBeneficiaryInfo: "LARGE",
      },
    );
    const decide = (u: UserRow) =>
      invoke(mod.decide, "POST", `/api/incoming-wires/${w.payment_id}`, {
        as: u,
        params: { paymentId: w.payment_id },
        body: { accountNumber: dda, action: "approve", paymentTimestamp: w.payment_timestamp },
      });
    const first = await decide(a);
    expect(first.json.outcome).toBe("awaiting_second_approval");
    await demoteAndDisable(a);
    // The decision page shows the struck vote with why, and the policy that applies.
    const queue = await invoke(mod.queue, "GET", "/api/incoming-wires", { as: b });
    expect(queue.status).toBe(200);
    const queued = queue.json.wires.find((x: { paymentId: string }) => x.paymentId === w.payment_id);
    expect(queued).toMatchObject({
      approvalsRequired: 2,
      approvalPolicy: expect.stringMatching(/^Incoming wires over \$[\d,.]+: 2 approvers$/),
    });
    const listed = (queued.votes as { userEmail: string; ineligible?: string }[]).find(
      (v) => v.userEmail === a.email,
    );
    expect(listed?.ineligible).toMatch(/disabled|no longer/i);
    client.sent = [];
    const second = await decide(b);
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.json.outcome).toBe("awaiting_second_approval");
    expect(client.sent.filter((n) => n.startsWith("paymentAction"))).toEqual([]);
    const struck = (second.json.votes as { userEmail: string; ineligible?: string }[]).find(
      (v) => v.userEmail === a.email,
    );
    expect(struck?.ineligible).toMatch(/disabled|no longer/i);
  });
});
