// Two approvers above the release dual-approval limit, raced on a real PostgreSQL server (PGlite's
// single connection would serialise them): concurrent second approvals send once; the same
// approver approving from five windows at once is one approval and sends nothing; two first
// approvals arriving together still send exactly once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { openPgDraftWorld, type PgDraftWorld } from "../helpers/pg-drafts.ts";
import { invoke, testUser } from "../helpers/routes.ts";

describe.skipIf(!process.env.TEST_DATABASE_URL)("two approvers above the limit, under concurrency", () => {
  let world: PgDraftWorld;
  let db: DashboardDb;
  let account: string;
  let preparer: UserRow;
  let approvers: UserRow[];

  beforeAll(async () => {
    world = await openPgDraftWorld("two-race", { approvers: 4 });
    ({ db, account, preparer, approvers } = world);
    const admin = await testUser(db, "admin", "admin@two-race.example", "Admin");
    // $1,000.00: lowering the limit strengthens the control, so one administrator may.
    const set = await invoke(() => import("../../app/api/admin/settings/route.ts"), "PUT", "/x", {
      as: admin,
      body: { releaseDualApprovalCents: 100_000 },
    });
    expect(set.status).toBe(200);
  });

  afterAll(async () => {
    await world?.close();
  });

  const wireDraft = async (beneficiary: string, amount: string) => {
    const made = await invoke(() => import("../../app/api/wires/route.ts"), "POST", "/x", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: account,
        amount,
        beneficiary_name: "Two Race Payee",
        beneficiary_account_number: beneficiary,
        beneficiary_address1: "4 Vote Street",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(made.status).toBe(200);
    expect(made.json.draft.approvalsRequired).toBe(2);
    return made.json.draft.id as string;
  };
  const release = (as: UserRow, id: string) =>
    invoke(() => import("../../app/api/drafts/[id]/release/route.ts"), "POST", "/x", {
      as,
      body: { version: 1 },
      params: { id },
    });
  const wiresTo = (beneficiary: string) => world.wiresTo(beneficiary);
  const available = async () => (await world.balance()).available;

  it("sends once when three second approvals arrive together", async () => {
    for (let round = 0; round < 5; round++) {
      const beneficiary = `66${round}01`;
      const id = await wireDraft(beneficiary, `1,50${round}.00`);
      const first = await release(approvers[0], id);
      expect(first.json.draft.status).toBe("pending");
      const before = await available();
      const replies = await Promise.all(approvers.slice(1).map((a) => release(a, id)));
      const sent = replies.filter((r) => r.status === 200 && r.json.draft.status === "released");
      expect(sent, JSON.stringify(replies.map((r) => [r.status, r.json]))).toHaveLength(1);
      for (const r of replies.filter((x) => x !== sent[0])) expect(r.status).toBe(409);
      const wires = await wiresTo(beneficiary);
      expect(wires.map((w) => w.payment_id)).toEqual([sent[0].json.draft.paymentId]);
      expect(await available()).toBe(before - (150_000 + round * 100));
    }
  });

  it("counts one approver once however many windows approve at once, and sends nothing", async () => {
    const id = await wireDraft("66900", "2,000.00");
    const replies = await Promise.all(Array.from({ length: 5 }, () => release(approvers[1], id)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(4);
    const row = await db.query<{ n: number; status: string }>(
      `SELECT (SELECT count(*)::int FROM draft_approvals WHERE draft_id = $1) AS n, status
       FROM payment_drafts WHERE id = $1`,
      [id],
    );
    expect(row[0]).toEqual({ n: 1, status: "pending" });
    expect(await wiresTo("66900")).toEqual([]);
  });

  it("sends exactly once when the first two approvals arrive together", async () => {
    for (let round = 0; round < 5; round++) {
      const beneficiary = `67${round}02`;
      const id = await wireDraft(beneficiary, `1,10${round}.00`);
      const replies = await Promise.all([release(approvers[2], id), release(approvers[3], id)]);
      expect(replies.every((r) => r.status === 200 || r.status === 409)).toBe(true);
      expect(replies.filter((r) => r.status === 200 && r.json.draft.status === "released")).toHaveLength(1);
      expect(await wiresTo(beneficiary)).toHaveLength(1);
    }
  });
});
