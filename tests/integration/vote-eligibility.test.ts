// A vote counts only while its voter may still cast it: an approver who voted and was then demoted
// or disabled no longer counts toward a draft's or an incoming wire's approvals, so the next
// approver's single vote cannot send what needs two. Route handlers against the real bank.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSignIn } from "../../lib/auth/sign-in.ts";
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
let admin2: UserRow;

const mod = {
  wires: () => import("../../app/api/wires/route.ts"),
  release: () => import("../../app/api/drafts/[id]/release/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
  user: () => import("../../app/api/admin/users/[id]/route.ts"),
  decide: () => import("../../app/api/incoming-wires/[paymentId]/route.ts"),
  queue: () => import("../../app/api/incoming-wires/route.ts"),
  reset: () => import("../../app/api/admin/users/[id]/reset-password/route.ts"),
  approveChange: () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
  beneficiaries: () => import("../../app/api/beneficiaries/route.ts"),
  beneficiary: () => import("../../app/api/beneficiaries/[id]/route.ts"),
  approvePayee: () => import("../../app/api/beneficiaries/[id]/approve/route.ts"),
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
  admin2 = await testUser(db, "admin", "admin2@votes.example", "Admin Two");
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
    expect(votes.find((v) => v.email === a.email)?.ineligible).toBe("is disabled");
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
    expect(listed?.ineligible).toBe("is disabled");
    client.sent = [];
    const second = await decide(b);
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.json.outcome).toBe("awaiting_second_approval");
    expect(client.sent.filter((n) => n.startsWith("paymentAction"))).toEqual([]);
    const struck = (second.json.votes as { userEmail: string; ineligible?: string }[]).find(
      (v) => v.userEmail === a.email,
    );
    expect(struck?.ineligible).toBe("is disabled");
  });

  /** Two approvers, a $2,000,000 wire (two approvals required) and A's first vote on it. */
  async function firstVoteOnLargeWire(
    tag: string,
    payeeFields: Record<string, string> = {},
    beneficiaryId?: string,
  ) {
    const a = await testUser(db, "approver", `${tag}a-${randomUUID().slice(0, 8)}@votes.example`, `${tag} A`);
    const b = await testUser(db, "approver", `${tag}b-${randomUUID().slice(0, 8)}@votes.example`, `${tag} B`);
    const made = await invoke(mod.wires, "POST", "/api/wires", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: dda,
        amount: "2,000,000.00",
        beneficiary_name: `${tag} Payee`,
        beneficiary_account_number: "7700456",
        beneficiary_address1: "2 Vote Lane",
        receiving_bank_routing_id: "021000021",
        ...payeeFields,
        ...(beneficiaryId ? { beneficiaryId } : {}),
      },
    });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const id = made.json.draft.id as string;
    expect(made.json.draft.approvalsRequired).toBe(2);
    const first = await invoke(mod.release, "POST", "/x", { as: a, params: { id }, body: { version: 1 } });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json.draft.status).toBe("pending");
    return { a, b, id };
  }

  /** B's release sends nothing, and the draft shows A's vote struck with `why`. */
  async function secondVoteSendsNothing(o: { a: UserRow; b: UserRow; id: string }, why: RegExp) {
    client.sent = [];
    const second = await invoke(mod.release, "POST", "/x", {
      as: o.b,
      params: { id: o.id },
      body: { version: 1 },
    });
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.json.draft.status).toBe("pending");
    expect(client.sent.filter((n) => n.startsWith("initiatePayment"))).toEqual([]);
    const shown = await invoke(mod.draft, "GET", "/x", { as: o.b, params: { id: o.id } });
    const votes = shown.json.draft.approvals as { email: string; ineligible?: string }[];
    expect(votes.find((v) => v.email === o.a.email)?.ineligible).toMatch(why);
    expect(votes.find((v) => v.email === o.a.email)?.ineligible).not.toContain(o.a.email);
    expect(votes.find((v) => v.email === o.b.email)?.ineligible).toBeUndefined();
  }

  it("does not count once its voter is locked out after failed sign-ins", async () => {
    const o = await firstVoteOnLargeWire("Locked");
    for (let i = 0; i < 10; i++) await checkSignIn(db, { email: o.a.email, password: "not the password" });
    expect((await checkSignIn(db, { email: o.a.email, password: "not the password" })).ok).toBe(false);
    await secondVoteSendsNothing(o, /locked out/);
  });

  it("does not count while its voter's password reset is pending", async () => {
    const o = await firstVoteOnLargeWire("Reset");
    const asked = await invoke(mod.reset, "POST", "/x", { as: admin, params: { id: o.a.id } });
    expect(asked.status, JSON.stringify(asked.json)).toBe(202);
    const approved = await invoke(mod.approveChange, "POST", "/x", {
      as: admin2,
      params: { id: asked.json.pending[0].id },
    });
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    await secondVoteSendsNothing(o, /reset pending/);
  });

  it("does not count once its voter has since changed the payee the wire pays", async () => {
    const c = await testUser(db, "approver", `payee-c-${randomUUID().slice(0, 8)}@votes.example`, "Payee C");
    const d = await testUser(db, "approver", `payee-d-${randomUUID().slice(0, 8)}@votes.example`, "Payee D");
    const fields = {
      beneficiary_name: "Editor Vote Payee",
      beneficiary_account_number: "7700789",
      beneficiary_address1: "3 Vote Lane",
      receiving_bank_routing_id: "021000021",
    };
    const label = `Editor ${randomUUID().slice(0, 6)}`;
    const saved = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: c,
      body: { label, fields },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const payee = saved.json.beneficiary;
    const approvePayee = (as: UserRow, changeId: string) =>
      invoke(mod.approvePayee, "POST", "/x", { as, params: { id: payee.id }, body: { changeId } });
    expect((await approvePayee(d, payee.pendingChange.id)).status).toBe(200);

    // A votes while the payee's last editor is C; then A changes the payee and D approves it.
    const o = await firstVoteOnLargeWire("Editor", fields, payee.id);
    const changed = await invoke(mod.beneficiary, "PUT", "/x", {
      as: o.a,
      params: { id: payee.id },
      body: { label, fields: { ...fields, beneficiary_account_number: "7700790" } },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect((await approvePayee(d, changed.json.beneficiary.pendingChange.id)).status).toBe(200);
    await secondVoteSendsNothing(o, /last changed this payee/);
  });
});
