// Two people for large outgoing money: above the release dual-approval limit (a dashboard setting)
// a wire or SEN draft needs two approvals by two different approvers, neither its preparer. The
// route handlers run as Next runs them, against the real bank and a real dashboard database, and
// a counting bank client shows what was (not) sent.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { readAudit } from "../../lib/audit/log.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { getBankClient } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import {
  type CountingBankClient,
  invoke,
  openRouteWorld,
  type RouteWorld,
  testUser,
} from "../helpers/routes.ts";

let world: RouteWorld;
let db: DashboardDb;
let client: CountingBankClient;
let dda: string;
let sen1: string;
let sen2: string;
let preparer: UserRow;
let admin: UserRow;
const approvers: UserRow[] = [];

const mod = {
  wires: () => import("../../app/api/wires/route.ts"),
  transfers: () => import("../../app/api/transfers/route.ts"),
  drafts: () => import("../../app/api/drafts/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
  release: () => import("../../app/api/drafts/[id]/release/route.ts"),
  settings: () => import("../../app/api/admin/settings/route.ts"),
};

/** The limit these tests run under: $1,000.00, set by an administrator (lowering it strengthens it). */
const LIMIT_CENTS = 100_000;

const release = (as: UserRow, id: string, version = 1) =>
  invoke(mod.release, "POST", "/x", { as, params: { id }, body: { version } });

const wire = async (amount: string, beneficiary: string, as = preparer) => {
  const r = await invoke(mod.wires, "POST", "/api/wires", {
    as,
    body: {
      idempotencyKey: randomUUID(),
      originator_account_number: dda,
      amount,
      beneficiary_name: "Large Payee Corp",
      beneficiary_account_number: beneficiary,
      beneficiary_address1: "9 Treasury Way",
      receiving_bank_routing_id: "021000021",
    },
  });
  expect(r.status).toBe(200);
  return r.json.draft as { id: string; approvalsRequired: number; approvals: unknown[] };
};

async function wiresTo(beneficiary: string) {
  const r = await (await getBankClient()).call("listPayments", {
    query: {
      account_number: dda,
      begin_date: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
    },
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.data.filter((p) => p.beneficiary_id === beneficiary);
}

async function available(account: string) {
  const r = await (await getBankClient()).call("balance", { query: { accountNumber: account } });
  if (!r.ok) throw new Error(r.error.message);
  return dollarsToCents(r.data.ResponseData[0].AVAILBAL) as number;
}

beforeAll(async () => {
  world = await openRouteWorld("release-two-approvers", { customer: "Two Approvers Ltd" });
  ({ db } = world);
  client = world.client as CountingBankClient;
  const c = world.customer;
  dda = await c.account("DDA", 50_000);
  sen1 = await c.account("SEN", 50_000);
  sen2 = await c.account("SEN", 10);
  preparer = await testUser(db, "preparer", "prep@two.example", "Prep");
  admin = await testUser(db, "admin", "admin@two.example", "Admin");
  for (const n of [1, 2, 3])
    approvers.push(await testUser(db, "approver", `appr${n}@two.example`, `Appr ${n}`));
  const set = await invoke(mod.settings, "PUT", "/api/admin/settings", {
    as: admin,
    body: { releaseDualApprovalCents: LIMIT_CENTS, senReleaseThresholdCents: 50_000 },
  });
  expect(set.status).toBe(200);
  expect(set.json.settings.releaseDualApprovalCents).toBe(LIMIT_CENTS);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe("outgoing money above the release dual-approval limit", () => {
  it("defaults to $1,000,000.00, a limit kept in integer cents", async () => {
    const { SETTING_DEFAULTS } = await import("../../lib/dashboard-api/settings.ts");
    expect(SETTING_DEFAULTS.releaseDualApprovalCents).toBe(100_000_000);
  });

  it("is not sent on one approval: the API says why, the same approver again does not count, the preparer cannot vote, and a second approver sends it once", async () => {
    // Prepared by an approver: a person with release rights who still cannot approve their own.
    const maker = approvers[2];
    const d = await wire("1,500.00", "880001", maker);
    expect(d).toMatchObject({ approvalsRequired: 2, approvals: [] });
    const before = await available(dda);
    client.sent = [];

    const first = await release(approvers[0], d.id);
    expect(first.status).toBe(200);
    expect(first.json.draft).toMatchObject({
      status: "pending",
      approvalsRequired: 2,
      approvals: [{ id: approvers[0].id, email: approvers[0].email }],
      paymentId: null,
    });
    expect(first.json.message).toMatch(/approval is recorded \(1 of 2\).*second approver.*Nothing was sent/);

    const again = await release(approvers[0], d.id);
    expect(again.status).toBe(409);
    expect(again.json.error.message).toMatch(/already approved.*someone else/);
    const own = await release(maker, d.id);
    expect(own.status).toBe(403);
    expect(own.json.error.message).toMatch(/You prepared this draft/);
    expect(client.sent).toEqual([]);
    expect(await wiresTo("880001")).toEqual([]);
    const shown = await invoke(mod.draft, "GET", "/x", { as: maker, params: { id: d.id } });
    expect(shown.json.draft.approvals.map((a: { email: string }) => a.email)).toEqual([approvers[0].email]);

    const second = await release(approvers[1], d.id);
    expect(second.status).toBe(200);
    expect(second.json.message).toBeUndefined();
    expect(second.json.draft).toMatchObject({ status: "released", approvalsRequired: 2 });
    expect(second.json.draft.approvals.map((a: { email: string }) => a.email)).toEqual([
      approvers[0].email,
      approvers[1].email,
    ]);
    expect(client.sent.filter((n) => n === "initiatePayment")).toHaveLength(1);

    const third = await release(admin, d.id);
    expect(third.status).toBe(409);
    const wires = await wiresTo("880001");
    expect(wires.map((w) => [w.payment_id, w.amount])).toEqual([[second.json.draft.paymentId, 1500]]);
    expect(await available(dda)).toBe(before - 150_000);

    const audit = (await readAudit(db))
      .filter((e) => e.target === d.id)
      .reverse()
      .map((e) => `${e.action}:${e.actorEmail}:${e.result}`);
    expect(audit).toEqual([
      `draft.create.wire:${maker.email}:ok`,
      `draft.approve.wire:${approvers[0].email}:awaiting_second_approval`,
      `draft.release:${approvers[0].email}:stale`,
      `draft.release:${maker.email}:denied`,
      `draft.release.wire:${approvers[1].email}:released`,
      `draft.release:${admin.email}:stale`,
    ]);
  });

  it("lets one approver alone release at or below the limit", async () => {
    const d = await wire("1,000.00", "880002");
    expect(d.approvalsRequired).toBe(1);
    const r = await release(approvers[0], d.id);
    expect(r.json.draft).toMatchObject({ status: "released", approvalsRequired: 1 });
    expect(await wiresTo("880002")).toHaveLength(1);
  });

  it("needs two approvers for a SEN draft above the limit too, and it moves money once", async () => {
    const t = await invoke(mod.transfers, "POST", "/api/transfers", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        AccountNumberFrom: sen1,
        AccountNumberTo: sen2,
        Amount: "2,000.00",
      },
    });
    expect(t.status).toBe(200);
    const id = t.json.draft.id as string;
    const before = await available(sen1);
    expect((await release(approvers[1], id)).json.draft).toMatchObject({
      status: "pending",
      approvalsRequired: 2,
    });
    expect(await available(sen1)).toBe(before);
    expect((await release(approvers[2], id)).json.draft.status).toBe("released");
    expect(await available(sen1)).toBe(before - 200_000);
  });

  it("drops the approvals of a corrected draft: its new version starts again at none", async () => {
    const d = await wire("2,000.00", "880003");
    expect((await release(approvers[0], d.id)).json.draft.status).toBe("pending");
    const put = await invoke(mod.draft, "PUT", "/x", {
      as: preparer,
      params: { id: d.id },
      body: {
        version: 1,
        wire: {
          idempotencyKey: d.id,
          originator_account_number: dda,
          amount: "2,100.00",
          beneficiary_name: "Large Payee Corp",
          beneficiary_account_number: "880003",
          beneficiary_address1: "9 Treasury Way",
          receiving_bank_routing_id: "021000021",
        },
      },
    });
    expect(put.status).toBe(200);
    expect(put.json.draft).toMatchObject({ version: 2, approvals: [] });
    const next = await release(approvers[1], d.id, 2);
    expect(next.json.draft).toMatchObject({ status: "pending", version: 2 });
    expect(next.json.draft.approvals.map((a: { email: string }) => a.email)).toEqual([approvers[1].email]);
    expect(await wiresTo("880003")).toEqual([]);
  });
});
