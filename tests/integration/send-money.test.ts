// Sending money through the dashboard's route handlers, invoked as Next invokes them (a signed
// session cookie) against the real bank and a real dashboard database: SEN transfers that act
// once per form key, the release threshold, wire drafts under dual control (the preparer never
// releases, a changed or decided draft is a 409), rejection with a reason, saved beneficiaries,
// new SEN accounts, the payments list and detail, bad input and an unreachable bank.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { readAudit } from "../../lib/audit/log.ts";
import { ROLES, type Role } from "../../lib/auth/permissions.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { BankClient, getBankClient, setBankClient, TokenManager } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { LIVE_DESCRIPTION, receiverUrl } from "../../lib/live/receiver.ts";
import { sandbox, type TestBank } from "../helpers/bank.ts";
import { freePort } from "../helpers/ports.ts";
import {
  CountingBankClient,
  invoke,
  openRouteWorld,
  type RouteWorld,
  testUser,
  wireForm as wireFormOf,
} from "../helpers/routes.ts";

let bank: TestBank;
let world: RouteWorld;
let db: DashboardDb;
let subscriptionKey: string;
const users = {} as Record<Role, UserRow>;
let approver2: UserRow;
let sen1: string;
let sen2: string;
let dda: string;

const mod = {
  transfers: () => import("../../app/api/transfers/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
  duplicates: () => import("../../app/api/wires/duplicates/route.ts"),
  drafts: () => import("../../app/api/drafts/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
  release: () => import("../../app/api/drafts/[id]/release/route.ts"),
  reject: () => import("../../app/api/drafts/[id]/reject/route.ts"),
  beneficiaries: () => import("../../app/api/beneficiaries/route.ts"),
  beneficiary: () => import("../../app/api/beneficiaries/[id]/route.ts"),
  payments: () => import("../../app/api/payments/route.ts"),
  payment: () => import("../../app/api/payments/[id]/route.ts"),
  createSen: () => import("../../app/api/accounts/sen/route.ts"),
  wireSystem: () => import("../../app/api/wire-system/route.ts"),
};

/** Available balance in cents, as the bank reports it. */
async function available(account: string): Promise<number> {
  const r = await (await getBankClient()).call("balance", { query: { accountNumber: account } });
  if (!r.ok) throw new Error(r.error.message);
  return dollarsToCents(r.data.ResponseData[0].AVAILBAL) as number;
}

/** Every wire of the account in the last 30 days, as the bank lists them. */
async function bankPayments(account: string) {
  const today = new Date();
  const from = new Date(today.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  const r = await (await getBankClient()).call("listPayments", {
    query: {
      account_number: account,
      begin_date: from,
      end_date: addDays(today.toISOString().slice(0, 10), 1),
    },
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.data;
}

const wireForm = (over: Record<string, unknown> = {}) => wireFormOf(dda, over);

const senForm = (amount: string, over: Record<string, unknown> = {}) => ({
  idempotencyKey: randomUUID(),
  AccountNumberFrom: sen1,
  AccountNumberTo: sen2,
  Amount: amount,
  AccountFromDescription2: "Payroll funding",
  AccountToDescription2: "From operating",
  ...over,
});

beforeAll(async () => {
  // The route handlers make their own bank client from the environment, as in production.
  world = await openRouteWorld("send-money", { customer: "Northwind Traders LLC", client: "environment" });
  ({ bank, db } = world);
  const c = world.customer;
  subscriptionKey = c.subscriptionKey;
  // Live balances on: a new SEN account's webhook points at a receiver nobody serves here.
  process.env.BANK_WEBHOOK_SECRET = c.webhookSecret;
  process.env.DASHBOARD_WEBHOOK_BASE_URL = `http://127.0.0.1:${await freePort()}`;
  dda = await c.account("DDA", 500_000);
  sen1 = await c.account("SEN", 1_000_000);
  sen2 = await c.account("SEN", 10);
  for (const role of ROLES) users[role] = await testUser(db, role, `${role}@send.example`, `Send ${role}`);
  approver2 = await testUser(db, "approver", "approver2@send.example", "Second approver");
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe("permissions", () => {
  it("refuses each role what lib/auth/permissions.ts does not give it, and 401 without a session", async () => {
    expect((await invoke(mod.transfers, "POST", "/api/transfers", { body: senForm("1.00") })).status).toBe(
      401,
    );
    expect(
      (await invoke(mod.transfers, "POST", "/api/transfers", { as: users.viewer, body: senForm("1.00") }))
        .status,
    ).toBe(403);
    expect(
      (await invoke(mod.wires, "POST", "/api/wires", { as: users.viewer, body: wireForm() })).status,
    ).toBe(403);
    expect((await invoke(mod.drafts, "GET", "/api/drafts", { as: users.viewer })).status).toBe(403);
    expect(
      (await invoke(mod.createSen, "POST", "/api/accounts/sen", { as: users.viewer, body: {} })).status,
    ).toBe(403);
    const id = randomUUID();
    expect(
      (
        await invoke(mod.release, "POST", `/api/drafts/${id}/release`, {
          as: users.preparer,
          params: { id },
          body: { version: 1 },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await invoke(mod.payments, "GET", `/api/payments?account=${dda}&from=2026-01-01&to=2026-01-02`, {
          as: users.viewer,
        })
      ).status,
    ).toBe(200);
  });
});

describe("SEN transfers", () => {
  it("moves money once per form key: a double submit and a retry after it", async () => {
    const before = [await available(sen1), await available(sen2)];
    const form = senForm("1,234.56");
    const [a, b] = await Promise.all([
      invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body: form }),
      invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body: form }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json.outcome).toBe("completed");
    expect(a.json.amountCents).toBe(123_456);
    expect(a.json.messages.join(" ")).not.toBe("");
    const again = await invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body: form });
    expect(again.status).toBe(200);
    expect([await available(sen1), await available(sen2)]).toEqual([
      before[0] - 123_456,
      before[1] + 123_456,
    ]);
    expect(again.json.fromAvailableCents).toBe(before[0] - 123_456);
    // One transfer, audited as done once; the two other answers under its key are repeats.
    const entries = (await readAudit(db)).filter((e) => e.target === form.idempotencyKey);
    const audit = entries.filter((e) => e.action === "transfer.sen");
    expect(audit.map((e) => e.result)).toEqual(["ok"]);
    expect(JSON.stringify(audit[0].detail)).toContain("MESSAGE");
    expect(entries.filter((e) => e.action === "transfer.sen.repeat").map((e) => e.result)).toEqual([
      "ok",
      "ok",
    ]);
  });

  it("answers 400 naming the field for bad input, and moves nothing", async () => {
    const before = await available(sen1);
    const cases: [Record<string, unknown>, string][] = [
      [senForm("12.345"), "Amount"],
      [senForm("-5"), "Amount"],
      [senForm("abc"), "Amount"],
      [senForm("10", { AccountNumberTo: sen1 }), "AccountNumberTo"],
      [senForm("10", { AccountFromDescription3: "x".repeat(41) }), "AccountFromDescription3"],
      [senForm("10", { idempotencyKey: "not a key!" }), "idempotencyKey"],
      [senForm("10", { AccountNumberFrom: "" }), "AccountNumberFrom"],
    ];
    for (const [body, field] of cases) {
      const r = await invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect(await available(sen1)).toBe(before);
  });

  it("shows the bank's refusal next to the field it concerns (insufficient funds)", async () => {
    const r = await invoke(mod.transfers, "POST", "/api/transfers", {
      as: users.preparer,
      body: senForm("100,000.00", { AccountNumberFrom: sen2, AccountNumberTo: sen1 }),
    });
    const funds = await available(sen2);
    if (funds >= 10_000_000) throw new Error("test setup: sen2 should hold less than $100,000");
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe("bank_rejected");
    expect(r.json.error.message).toMatch(/insufficient/i);
    expect(r.json.error.fields[0].field).toBe("Amount");
  });

  it("above the release threshold becomes a draft that only another user releases, once", async () => {
    const before = await available(sen1);
    const form = senForm("250,000.01");
    const r = await invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body: form });
    expect(r.status).toBe(200);
    expect(r.json.outcome).toBe("draft");
    const draft = r.json.draft;
    expect(draft).toMatchObject({
      kind: "sen",
      status: "pending",
      amountCents: 25_000_001,
      counterparty: sen2,
    });
    expect(await available(sen1)).toBe(before);
    // The same form again is the same draft.
    const twice = await invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body: form });
    expect(twice.json.draft.id).toBe(draft.id);

    const own = await invoke(mod.release, "POST", "/x", {
      as: users.preparer,
      params: { id: draft.id },
      body: { version: 1 },
    });
    expect(own.status).toBe(403);
    const ok = await invoke(mod.release, "POST", "/x", {
      as: users.approver,
      params: { id: draft.id },
      body: { version: 1 },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.draft.status).toBe("released");
    expect(await available(sen1)).toBe(before - 25_000_001);
    const late = await invoke(mod.release, "POST", "/x", {
      as: approver2,
      params: { id: draft.id },
      body: { version: 1 },
    });
    expect(late.status).toBe(409);
    expect(late.json.error.message).toMatch(/already released/);
    expect(await available(sen1)).toBe(before - 25_000_001);
    const audit = (await readAudit(db)).filter((e) => e.target === draft.id);
    expect(audit.map((e) => `${e.action}:${e.result}`)).toEqual(
      expect.arrayContaining(["draft.create.sen:ok", "draft.release.sen:released", "draft.release:stale"]),
    );
  });
});

describe("wire drafts", () => {
  it("checks the ABA check digit and the BIC format, naming the field", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [wireForm({ receiving_bank_routing_id: "021000022" }), "receiving_bank_routing_id"],
      [
        wireForm({ beneficiary_bank_type: "SWIFT", beneficiary_bank_routing_id: "BOFA12" }),
        "beneficiary_bank_routing_id",
      ],
      [
        wireForm({ beneficiary_bank_type: "ABA", beneficiary_bank_routing_id: "123456789" }),
        "beneficiary_bank_routing_id",
      ],
      [wireForm({ beneficiary_name: "" }), "beneficiary_name"],
      [wireForm({ beneficiary_address2: "y".repeat(36) }), "beneficiary_address2"],
      [wireForm({ amount: "0" }), "amount"],
      // Looks like an IBAN, so it must be one (ISO 13616): a wrong check digit, a wrong length.
      [wireForm({ beneficiary_account_number: "DE89 3704 0044 0532 0130 01" }), "beneficiary_account_number"],
      [wireForm({ beneficiary_account_number: "GB82WEST1234569876543" }), "beneficiary_account_number"],
      [
        wireForm({ intermediary_bank_account_number: "FR7630006000011234567890188" }),
        "intermediary_bank_account_number",
      ],
    ];
    for (const [body, field] of bad) {
      const r = await invoke(mod.wires, "POST", "/api/wires", { as: users.preparer, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const swift = await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({
        beneficiary_bank_type: "SWIFT",
        beneficiary_bank_routing_id: "DEUTDEFF500",
        amount: "1",
      }),
    });
    expect(swift.status).toBe(200);
    const iban = await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({
        beneficiary_account_number: "DE89 3704 0044 0532 0130 00",
        beneficiary_bank_type: "SWIFT",
        beneficiary_bank_routing_id: "DEUTDEFF500",
        amount: "1",
      }),
    });
    expect(iban.status).toBe(200);
    const checked = await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({ beneficiary_account_number: "DE89370400440532013001" }),
    });
    expect(checked.json.error.fields).toContainEqual({
      field: "beneficiary_account_number",
      message: "must be a valid IBAN: its check digits do not match (ISO 13616)",
    });
  });

  it("a draft is never released by its preparer; another approver releases it once, even after a retry", async () => {
    const paymentsBefore = (await bankPayments(dda)).length;
    const before = await available(dda);
    const r = await invoke(mod.wires, "POST", "/api/wires", { as: users.approver, body: wireForm() });
    expect(r.status).toBe(200);
    const d = r.json.draft;
    expect(d).toMatchObject({
      kind: "wire",
      status: "pending",
      amountCents: 125_050,
      preparedBy: { id: users.approver.id },
    });
    expect(await available(dda)).toBe(before);

    const listed = await invoke(mod.drafts, "GET", "/api/drafts", { as: users.preparer });
    expect(listed.json.drafts.map((x: { id: string }) => x.id)).toContain(d.id);

    const own = await invoke(mod.release, "POST", "/x", {
      as: users.approver,
      params: { id: d.id },
      body: { version: 1 },
    });
    expect(own.status).toBe(403);
    expect(own.json.error.message).toMatch(/You prepared this draft/);
    const ok = await invoke(mod.release, "POST", "/x", {
      as: approver2,
      params: { id: d.id },
      body: { version: 1 },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.draft.status).toBe("released");
    expect(ok.json.draft.paymentId).toMatch(/^O/);
    const retry = await invoke(mod.release, "POST", "/x", {
      as: approver2,
      params: { id: d.id },
      body: { version: 1 },
    });
    expect(retry.status).toBe(409);
    expect(await available(dda)).toBe(before - 125_050);
    const after = await bankPayments(dda);
    expect(after.length).toBe(paymentsBefore + 1);
    expect(after.some((p) => p.payment_id === ok.json.draft.paymentId)).toBe(true);
    const denied = (await readAudit(db)).find((e) => e.target === d.id && e.result === "denied");
    expect(denied?.actorId).toBe(users.approver.id);

    // The payments page lists it, and its detail has every field.
    const today = new Date().toISOString().slice(0, 10);
    const from = addDays(today, -5);
    const to = addDays(today, 1);
    const list = await invoke(
      mod.payments,
      "GET",
      `/api/payments?account=${dda}&from=${from}&to=${to}&direction=outgoing`,
      {
        as: users.viewer,
      },
    );
    expect(list.status).toBe(200);
    const row = list.json.payments.find(
      (p: { paymentId: string }) => p.paymentId === ok.json.draft.paymentId,
    );
    expect(row).toMatchObject({
      amountCents: 125_050,
      counterparty: "Acme Supplies Inc",
      direction: "Outgoing",
    });
    // The page opens on every account: the same wire, named with its account, and the totals of each.
    const every = await invoke(mod.payments, "GET", `/api/payments?account=all&from=${from}&to=${to}`, {
      as: users.viewer,
    });
    expect(every.status).toBe(200);
    expect(every.json.account).toBe("all");
    expect(
      every.json.payments.find((p: { paymentId: string }) => p.paymentId === row.paymentId),
    ).toMatchObject({
      account: dda,
      amountCents: 125_050,
    });
    const one = await invoke(mod.payments, "GET", `/api/payments?account=${dda}&from=${from}&to=${to}`, {
      as: users.viewer,
    });
    expect(every.json.total).toBeGreaterThanOrEqual(one.json.total);
    const bad = await invoke(mod.payments, "GET", `/api/payments?account=every&from=${from}&to=${to}`, {
      as: users.viewer,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["account"]);
    const detail = await invoke(mod.payment, "GET", `/api/payments/${row.paymentId}?account=${dda}`, {
      as: users.viewer,
      params: { id: row.paymentId },
    });
    expect(detail.status).toBe(200);
    expect(detail.json.record.beneficiary_name).toBe("Acme Supplies Inc");
    expect(detail.json.amountCents).toBe(125_050);
    // Its story: who prepared and released it by name (the refused attempts are no step), then the bank.
    const story = detail.json.story as { at: string; title: string; who: string | null }[];
    expect(story.map((s) => [s.title, s.who])).toEqual([
      ["Prepared", "Send approver (approver@send.example)"],
      ["Released", "Second approver (approver2@send.example)"],
      ["Accepted by the bank", null],
    ]);
    expect(story.map((s) => Date.parse(s.at))).toEqual(
      story.map((s) => Date.parse(s.at)).sort((x, y) => x - y),
    );
  });

  it("a draft changed after preparation must be reviewed again (409 on the old version) and the editor cannot release it", async () => {
    const r = await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({ amount: "10" }),
    });
    const d = r.json.draft;
    const changed = await invoke(mod.draft, "PUT", "/x", {
      as: users.approver,
      params: { id: d.id },
      body: { version: 1, wire: wireForm({ amount: "11", idempotencyKey: d.id }) },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.draft).toMatchObject({
      version: 2,
      amountCents: 1_100,
      preparedBy: { id: users.approver.id },
    });
    const stale = await invoke(mod.release, "POST", "/x", {
      as: approver2,
      params: { id: d.id },
      body: { version: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error.message).toMatch(/changed/);
    const editor = await invoke(mod.release, "POST", "/x", {
      as: users.approver,
      params: { id: d.id },
      body: { version: 2 },
    });
    expect(editor.status).toBe(403);
    const rej = await invoke(mod.reject, "POST", "/x", {
      as: approver2,
      params: { id: d.id },
      body: { version: 2, reason: "  " },
    });
    expect(rej.status).toBe(400);
    expect(rej.json.error.fields[0].field).toBe("reason");
    const ok = await invoke(mod.reject, "POST", "/x", {
      as: approver2,
      params: { id: d.id },
      body: { version: 2, reason: "Wrong invoice amount" },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.draft).toMatchObject({ status: "rejected", rejectReason: "Wrong invoice amount" });
    const late = await invoke(mod.release, "POST", "/x", {
      as: approver2,
      params: { id: d.id },
      body: { version: 2 },
    });
    expect(late.status).toBe(409);
    const audit = (await readAudit(db)).filter((e) => e.target === d.id);
    expect(audit.find((e) => e.action === "draft.reject.wire")?.detail).toMatchObject({
      reason: "Wrong invoice amount",
    });
  });

  it("a preparer corrects a draft: the approver who opened the old version releases nothing, and the bank is sent exactly the corrected wire", async () => {
    const r = await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({ amount: "20", beneficiary_name: "Old Payee Ltd" }),
    });
    expect(r.status).toBe(200);
    const v1 = r.json.draft;
    // The approver has version 1 on screen; the preparer corrects the payee and the amount.
    const corrected = await invoke(mod.draft, "PUT", "/x", {
      as: users.preparer,
      params: { id: v1.id },
      body: {
        version: 1,
        wire: wireForm({ amount: "21.50", beneficiary_name: "New Payee Ltd", idempotencyKey: v1.id }),
      },
    });
    expect(corrected.status).toBe(200);
    expect(corrected.json.draft).toMatchObject({
      version: 2,
      amountCents: 2_150,
      counterparty: "New Payee Ltd",
    });
    // A second correction from a stale screen is refused too: each change starts from what is stored.
    const staleEdit = await invoke(mod.draft, "PUT", "/x", {
      as: users.preparer,
      params: { id: v1.id },
      body: { version: 1, wire: wireForm({ amount: "99", idempotencyKey: v1.id }) },
    });
    expect(staleEdit.status).toBe(409);

    const client = new CountingBankClient({
      bankUrl: bank.url,
      subscriptionKey,
      tokens: new TokenManager({ db, bankUrl: bank.url, subscriptionKey }),
    });
    setBankClient(client);
    try {
      const old = await invoke(mod.release, "POST", "/x", {
        as: users.approver,
        params: { id: v1.id },
        body: { version: 1 },
      });
      expect(old.status).toBe(409);
      expect(client.sent).not.toContain("initiatePayment");
      expect((await bankPayments(dda)).some((p) => p.beneficiary_name === "Old Payee Ltd")).toBe(false);

      const released = await invoke(mod.release, "POST", "/x", {
        as: users.approver,
        params: { id: v1.id },
        body: { version: 2 },
      });
      expect(released.status).toBe(200);
      expect(client.sent.filter((n) => n === "initiatePayment")).toHaveLength(1);
      const atBank = (await bankPayments(dda)).filter((p) => p.payment_id === released.json.draft.paymentId);
      expect(atBank).toHaveLength(1);
      expect(atBank[0]).toMatchObject({ beneficiary_name: "New Payee Ltd" });
      expect(dollarsToCents(atBank[0].amount)).toBe(2_150);
      // Once released, the draft cannot be changed any more.
      const late = await invoke(mod.draft, "PUT", "/x", {
        as: users.preparer,
        params: { id: v1.id },
        body: { version: 2, wire: wireForm({ amount: "1", idempotencyKey: v1.id }) },
      });
      expect(late.status).toBe(409);
    } finally {
      setBankClient(undefined);
    }
    const audit = (await readAudit(db))
      .filter((e) => e.target === v1.id)
      .map((e) => `${e.action}:${e.result}`);
    expect(audit).toEqual(
      expect.arrayContaining([
        "draft.create.wire:ok",
        "draft.update.wire:ok",
        "draft.release:stale",
        "draft.release.wire:released",
      ]),
    );
  });

  it("warns of the same beneficiary and amount in the last 7 days", async () => {
    await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({ beneficiary_account_number: "55501", amount: "77.70" }),
    });
    const dup = await invoke(
      mod.duplicates,
      "GET",
      "/api/wires/duplicates?beneficiary_account_number=55501&amountCents=7770",
      {
        as: users.preparer,
      },
    );
    expect(dup.json.drafts).toHaveLength(1);
    const none = await invoke(
      mod.duplicates,
      "GET",
      "/api/wires/duplicates?beneficiary_account_number=55501&amountCents=7771",
      {
        as: users.preparer,
      },
    );
    expect(none.json.drafts).toHaveLength(0);
  });

  it("a wire the bank refuses (insufficient funds) fails with the bank's words, audited", async () => {
    const r = await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({ amount: "999,999,999" }),
    });
    // Above the release dual-approval limit: the first approval sends nothing, the second sends it.
    const first = await invoke(mod.release, "POST", "/x", {
      as: users.approver,
      params: { id: r.json.draft.id },
      body: { version: 1 },
    });
    expect(first.json.draft).toMatchObject({ status: "pending", approvalsRequired: 2 });
    const rel = await invoke(mod.release, "POST", "/x", {
      as: approver2,
      params: { id: r.json.draft.id },
      body: { version: 1 },
    });
    expect(rel.status).toBe(422);
    expect(rel.json.error.message).toMatch(/insufficient/i);
    const now = await invoke(mod.draft, "GET", "/x", { as: users.preparer, params: { id: r.json.draft.id } });
    expect(now.json.draft.status).toBe("failed");
    // The preparer's draft carries the bank's reason, not only "refused".
    expect(now.json.draft.bankAnswer.error).toMatch(/insufficient/i);
    const audit = (await readAudit(db)).find(
      (e) => e.target === r.json.draft.id && e.action === "draft.release.wire",
    );
    expect(audit?.result).toBe("rejected by bank");
  });
});

describe("a wire released while the wire system is down", () => {
  it("goes to the backup log, stays queued, is never sent twice, and is one wire once the system is back", async () => {
    const client = new CountingBankClient({
      bankUrl: bank.url,
      subscriptionKey,
      tokens: new TokenManager({ db, bankUrl: bank.url, subscriptionKey }),
    });
    const r = await invoke(mod.wires, "POST", "/api/wires", {
      as: users.preparer,
      body: wireForm({ beneficiary_account_number: "77001", amount: "321.09" }),
    });
    expect(r.status).toBe(200);
    const id = r.json.draft.id;
    const before = await available(dda);
    const sameWires = async () => (await bankPayments(dda)).filter((p) => p.beneficiary_id === "77001");
    setBankClient(client);
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
    let paymentId: string;
    try {
      const rel = await invoke(mod.release, "POST", "/x", {
        as: users.approver,
        params: { id },
        body: { version: 1 },
      });
      expect(rel.status).toBe(200);
      expect(rel.json.draft).toMatchObject({ status: "queued", channel: "backup" });
      paymentId = rel.json.draft.paymentId;
      expect(paymentId).toMatch(/^O/);
      expect(client.sent).toEqual(["initiatePayment", "initiatePaymentBackup"]);
      const queued = await sameWires();
      expect(queued.map((p) => [p.payment_id, p.payment_status])).toEqual([[paymentId, "Pre-Approval"]]);
      expect(await available(dda)).toBe(before);

      // The release dialog can say so before the next release: something waits in the backup log.
      const down = await invoke(mod.wireSystem, "GET", "/api/wire-system", { as: users.approver });
      expect(down.json).toMatchObject({ down: true, queued: 1 });
      expect(Date.parse(down.json.since)).toBeGreaterThan(0);
      expect((await invoke(mod.wireSystem, "GET", "/api/wire-system", { as: users.viewer })).status).toBe(
        403,
      );
      // Until the bank's replay, the draft reads queued, and no release sends it again.
      const shown = await invoke(mod.draft, "GET", "/x", { as: users.preparer, params: { id } });
      expect(shown.json.draft.status).toBe("queued");
      client.sent = [];
      for (const as of [users.approver, approver2]) {
        const again = await invoke(mod.release, "POST", "/x", { as, params: { id }, body: { version: 1 } });
        expect(again.status).toBe(409);
        expect(again.json.error.message).toMatch(/queued for reprocessing.*Nothing was sent/);
      }
      expect(client.sent).toEqual([]);
    } finally {
      const up = await sandbox<{ replayed: number }>(bank, "POST", "/sandbox/wire-system", { status: "up" });
      setBankClient(undefined);
      expect(up.replayed).toBeGreaterThanOrEqual(1);
    }

    const wires = await sameWires();
    expect(wires.map((p) => [p.payment_id, p.payment_status, p.amount])).toEqual([
      [paymentId, "In-Progress", 321.09],
    ]);
    expect(await available(dda)).toBe(before - 32_109);
    const all = await invoke(mod.drafts, "GET", "/api/drafts?status=all", { as: users.preparer });
    const settled = all.json.drafts.find((d: { id: string }) => d.id === id);
    expect(settled).toMatchObject({ status: "released", channel: "backup", paymentId });
    expect(settled.bankAnswer).toMatchObject({ payment_id: paymentId, payment_status: "In-Progress" });
    const open = await invoke(mod.drafts, "GET", "/api/drafts", { as: users.preparer });
    expect(open.json.drafts.map((d: { id: string }) => d.id)).not.toContain(id);
    expect(await sameWires()).toHaveLength(1);
    const upAgain = await invoke(mod.wireSystem, "GET", "/api/wire-system", { as: users.approver });
    expect(upAgain.json).toEqual({ down: false, since: null, queued: 0 });

    const audit = (await readAudit(db)).filter((e) => e.target === id).reverse();
    expect(audit.map((e) => `${e.action}:${e.result}`)).toEqual([
      "draft.create.wire:ok",
      "draft.release.wire:queued",
      "draft.release:stale",
      "draft.release:stale",
      "draft.reprocessed.wire:released",
    ]);
    expect(audit[1].detail).toMatchObject({
      channel: "backup",
      primaryError: expect.stringMatching(/unavailable/i),
      bankAnswer: { payment_id: paymentId, payment_status: "Pre-Approval" },
    });
  });
});

describe("beneficiaries, SEN accounts, payments", () => {
  it("saves a beneficiary template (checked like the wire form, audited) and lists it", async () => {
    const bad = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: users.preparer,
      body: { label: "Acme", fields: { ...wireForm(), receiving_bank_routing_id: "111111111" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields[0].field).toBe("fields.receiving_bank_routing_id");
    const { idempotencyKey: _k, originator_account_number: _o, amount: _a, ...fields } = wireForm();
    const ok = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: users.preparer,
      body: { label: "Acme", fields },
    });
    expect(ok.status).toBe(200);
    const dup = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: users.preparer,
      body: { label: "acme", fields },
    });
    expect(dup.status).toBe(409);
    const list = await invoke(mod.beneficiaries, "GET", "/api/beneficiaries", { as: users.preparer });
    expect(list.json.beneficiaries).toHaveLength(1);
    expect(list.json.beneficiaries[0].fields).toMatchObject({ beneficiary_name: "Acme Supplies Inc" });
    expect((await readAudit(db)).some((e) => e.action === "beneficiary.create")).toBe(true);
  });

  it("changes and deletes a saved beneficiary (checked again, audited with what it was), and says 404 or 409 in words", async () => {
    const { idempotencyKey: _k, originator_account_number: _o, amount: _a, ...fields } = wireForm();
    const made = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: users.preparer,
      body: { label: "Globex", fields: { ...fields, beneficiary_name: "Globex Corp" } },
    });
    expect(made.status).toBe(200);
    const id = made.json.beneficiary.id;
    const bad = await invoke(mod.beneficiary, "PUT", "/x", {
      as: users.preparer,
      params: { id },
      body: {
        label: "Globex",
        fields: { ...fields, beneficiary_bank_type: "SWIFT", beneficiary_bank_routing_id: "nope" },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.map((f: { field: string }) => f.field)).toContain(
      "fields.beneficiary_bank_routing_id",
    );
    const clash = await invoke(mod.beneficiary, "PUT", "/x", {
      as: users.preparer,
      params: { id },
      body: { label: "ACME", fields },
    });
    expect(clash.status).toBe(409);
    expect(clash.json.error.fields[0].field).toBe("label");
    const changed = await invoke(mod.beneficiary, "PUT", "/x", {
      as: users.approver,
      params: { id },
      body: {
        label: "Globex EU",
        fields: { ...fields, beneficiary_name: "Globex Europe BV", beneficiary_address2: "" },
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.beneficiary).toMatchObject({
      label: "Globex EU",
      fields: { beneficiary_name: "Globex Europe BV" },
    });
    expect(changed.json.beneficiary.fields).not.toHaveProperty("beneficiary_address2");
    const viewer = await invoke(mod.beneficiary, "DELETE", "/x", { as: users.viewer, params: { id } });
    expect(viewer.status).toBe(403);
    const gone = await invoke(mod.beneficiary, "DELETE", "/x", { as: users.preparer, params: { id } });
    expect(gone.status).toBe(200);
    const again = await invoke(mod.beneficiary, "DELETE", "/x", { as: users.preparer, params: { id } });
    expect(again.status).toBe(404);
    const junk = await invoke(mod.beneficiary, "DELETE", "/x", {
      as: users.preparer,
      params: { id: "not-an-id" },
    });
    expect(junk.status).toBe(404);
    const list = await invoke(mod.beneficiaries, "GET", "/api/beneficiaries", { as: users.preparer });
    expect(list.json.beneficiaries.map((b: { label: string }) => b.label)).not.toContain("Globex EU");
    const audit = (await readAudit(db)).filter((e) => e.target === id);
    expect(audit.find((e) => e.action === "beneficiary.update")?.detail).toMatchObject({
      label: "Globex EU",
      before: { label: "Globex", fields: { beneficiary_name: "Globex Corp" } },
    });
    expect(audit.find((e) => e.action === "beneficiary.delete")?.detail).toMatchObject({
      label: "Globex EU",
    });
  });

  it("opens a SEN account with the createsen rules", async () => {
    const bad = await invoke(mod.createSen, "POST", "/api/accounts/sen", {
      as: users.preparer,
      body: {
        ExpectedBalance: "0",
        ExpectedIncomingAmtMonth: "1.5",
        ExpectedOutgoingAmtMonth: "1,000,000,000",
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      "ExpectedBalance",
      "ExpectedIncomingAmtMonth",
      "ExpectedOutgoingAmtMonth",
    ]);
    const ok = await invoke(mod.createSen, "POST", "/api/accounts/sen", {
      as: users.preparer,
      body: {
        ExpectedBalance: "25,000",
        ExpectedIncomingAmtMonth: "100000",
        ExpectedOutgoingAmtMonth: "90000",
        AltTitleLine1: "Northwind Settlement",
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.accountNumber).toMatch(/^\d+$/);
    expect(await available(ok.json.accountNumber)).toBe(0);
    // The new account gets this dashboard's live-balance webhook at once, at the bank.
    const url = receiverUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/bank-events\//);
    const end = Date.now() + 20_000;
    let hook: { AccountNumber: string; WebHookUrl: string; Description: string } | undefined;
    while (!hook && Date.now() < end) {
      const r = await (await getBankClient()).call("listWebhooks");
      if (!r.ok) throw new Error(r.error.message);
      hook = r.data.find((h) => h.AccountNumber === ok.json.accountNumber && h.WebHookUrl === url);
      if (!hook) await new Promise((done) => setTimeout(done, 50));
    }
    expect(hook?.Description).toBe(LIVE_DESCRIPTION);
  });

  it("keeps the payments range within the bank's 32 days and names the field", async () => {
    const r = await invoke(
      mod.payments,
      "GET",
      `/api/payments?account=${dda}&from=2026-01-01&to=2026-02-03`,
      { as: users.viewer },
    );
    expect(r.status).toBe(400);
    expect(r.json.error.fields[0].field).toBe("to");
    const ok = await invoke(
      mod.payments,
      "GET",
      `/api/payments?account=${dda}&from=2026-01-01&to=2026-02-02&pageSize=25`,
      {
        as: users.viewer,
      },
    );
    expect(ok.status).toBe(200);
    const bad = await invoke(
      mod.payments,
      "GET",
      `/api/payments?account=${dda}&from=2026-01-01&to=2026-01-02&pageSize=7`,
      {
        as: users.viewer,
      },
    );
    expect(bad.json.error.fields[0].field).toBe("pageSize");
  });
});

describe("an unreachable bank", () => {
  it("says the money's state in words after looking the transfer up, and the form can be sent again", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    setBankClient(
      new BankClient({
        bankUrl: url,
        subscriptionKey,
        tokens: new TokenManager({ db, bankUrl: url, subscriptionKey }),
        timeoutMs: 1_000,
        readRetries: 0,
      }),
    );
    try {
      const form = senForm("5.00");
      const r = await invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body: form });
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe("bank_unavailable");
      expect(r.json.error.message).toMatch(/not yet known whether the money moved|no money has moved/);
      setBankClient(undefined);
      const before = await available(sen1);
      const again = await invoke(mod.transfers, "POST", "/api/transfers", { as: users.preparer, body: form });
      expect(again.status).toBe(200);
      expect(await available(sen1)).toBe(before - 500);
    } finally {
      setBankClient(undefined);
    }
  });
});
