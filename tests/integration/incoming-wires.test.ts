// The incoming-wire queue's route handlers, invoked as Next invokes them (a NextRequest with a
// real signed session cookie), against the real bank and a real dashboard database: wires made
// and outages staged through the bank's /sandbox, every outcome read back from the bank itself.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { readAudit } from "../../lib/audit/log.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { businessDayFormatter } from "../../lib/bank-api/dates.ts";
import type { PaymentRecord } from "../../lib/bank-api/payments.ts";
import { BankClient, setBankClient, TokenManager } from "../../lib/bank-client/index.ts";
import { config } from "../../lib/config.ts";
import type { IncomingWire, IncomingWiresResponse } from "../../lib/dashboard-api/incoming-wires.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { sendOutgoingWire } from "../../lib/payments/wire-fallback.ts";
import { sandbox, type TestBank } from "../helpers/bank.ts";
import {
  type CountingBankClient,
  invoke,
  openRouteWorld,
  type RouteWorld,
  testUser,
} from "../helpers/routes.ts";

let bank: TestBank;
let world: RouteWorld;
let db: DashboardDb;
let client: CountingBankClient;
let dda: string;
let second: string;
let approver: UserRow;
let admin: UserRow;
let viewer: UserRow;
let preparer: UserRow;

const mod = {
  queue: () => import("../../app/api/incoming-wires/route.ts"),
  decide: () => import("../../app/api/incoming-wires/[paymentId]/route.ts"),
  summaries: () => import("../../app/api/wire-summaries/route.ts"),
  audit: () => import("../../app/api/admin/audit/route.ts"),
  auditExport: () => import("../../app/api/admin/audit/export/route.ts"),
};

beforeAll(async () => {
  // Settlement only when the test asks for it (POST /sandbox/settle), so every state is observable.
  world = await openRouteWorld("incoming-wires", {
    customer: "Northwind Traders LLC",
    bankEnv: { BANK_SETTLE_AFTER_SECONDS: "86400" },
  });
  ({ bank, db } = world);
  client = world.client as CountingBankClient;
  dda = await world.customer.account("DDA", 50_000);
  second = await world.customer.account("DDA", 10);
  approver = await testUser(db, "approver", "approver@wires.example");
  admin = await testUser(db, "admin", "admin@wires.example");
  viewer = await testUser(db, "viewer", "viewer@wires.example");
  preparer = await testUser(db, "preparer", "preparer@wires.example");
}, 180_000);

afterAll(async () => {
  await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" }).catch(() => {});
  await world?.close();
});

beforeEach(() => {
  client.sent = [];
});

let serial = 0;
/** An incoming wire with an originator name no other row can hold. */
async function incomingWire(amount: number, account = dda) {
  const originatorName = `ORIGINATOR ${++serial} ${Date.now().toString(36).toUpperCase()}`.slice(0, 35);
  const r = await sandbox<{ payment_id: string; payment_timestamp: string }>(
    bank,
    "POST",
    "/sandbox/incoming-wires",
    {
      accountNumber: account,
      amount,
      originatorName,
      originatorToBeneficiaryInfo: `INVOICE ${serial}`,
    },
  );
  return { id: r.payment_id, timestamp: r.payment_timestamp, originatorName, account };
}

async function queue(user: UserRow = approver): Promise<IncomingWiresResponse> {
  const r = await invoke(mod.queue, "GET", "/api/incoming-wires", { as: user });
  expect(r.status).toBe(200);
  return r.json;
}

const rowOf = (q: IncomingWiresResponse, id: string): IncomingWire | undefined =>
  q.wires.find((w) => w.paymentId === id);

function decide(
  user: UserRow,
  w: { id: string; account: string; timestamp: string },
  action: string,
  over: Record<string, unknown> = {},
) {
  return invoke(mod.decide, "POST", `/api/incoming-wires/${w.id}`, {
    as: user,
    params: { paymentId: w.id },
    body: { accountNumber: w.account, action, paymentTimestamp: w.timestamp, ...over },
  });
}

/** The payment as the bank has it now, read straight from /v2/payment. */
async function atBank(account: string, paymentId: string): Promise<PaymentRecord> {
  const r = await client.call("listPayments", { query: { account_number: account, payment_id: paymentId } });
  if (!r.ok) throw new Error(r.error.message);
  const p = r.data.find((x) => x.payment_id === paymentId);
  if (!p) throw new Error(`payment ${paymentId} not found`);
  return p;
}

async function paymentsOf(account: string): Promise<PaymentRecord[]> {
  const begin = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const r = await client.call("listPayments", { query: { account_number: account, begin_date: begin } });
  if (!r.ok) throw new Error(r.error.message);
  return r.data;
}

const auditFor = async (paymentId: string) =>
  (await readAudit(db, 1000)).filter((e) => e.target === paymentId).reverse();

describe("the queue", () => {
  it("lists every incoming wire in Pre-Approval across the accounts, oldest first, with what a decision needs", async () => {
    const a = await incomingWire(1_234.56);
    const b = await incomingWire(20.01, second);
    const q = await queue();
    const ra = rowOf(q, a.id);
    const rb = rowOf(q, b.id);
    expect(ra).toMatchObject({
      accountNumber: dda,
      amountCents: 123_456,
      originatorName: a.originatorName,
      sendingBankName: "FIRST EXAMPLE BANK",
      info: `INVOICE ${serial - 1}`,
      paymentTimestamp: a.timestamp,
      state: "pending",
      needsTwoApprovers: false,
      votes: [],
    });
    expect(rb).toMatchObject({ accountNumber: second, amountCents: 2_001 });
    expect(q.wires.indexOf(ra as IncomingWire)).toBeLessThan(q.wires.indexOf(rb as IncomingWire));
    const times = q.wires.map((w) => w.receivedAt);
    expect([...times].sort()).toEqual(times);
    // The limit is the policy's, told per wire (needsTwoApprovers), never a number of its own.
    expect(q).not.toHaveProperty("dualApprovalCents");
  });

  it("answers a poll that names the current version 304 with only the time it read the queue, and a changed queue in full", async () => {
    await incomingWire(12.34);
    const first = await invoke(mod.queue, "GET", "/api/incoming-wires", { as: approver });
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^".+"$/);
    const poll = () =>
      invoke(mod.queue, "GET", "/api/incoming-wires", { as: approver, headers: { "if-none-match": etag } });

    const same = await poll();
    expect(same.status).toBe(304);
    expect(same.text).toBe("");
    expect(same.headers.get("etag")).toBe(etag);
    expect(Date.parse(same.headers.get("x-as-of") ?? "")).toBeGreaterThanOrEqual(Date.parse(first.json.asOf));

    const w = await incomingWire(56.78);
    const changed = await poll();
    expect(changed.status).toBe(200);
    expect(rowOf(changed.json, w.id)).toMatchObject({ amountCents: 5_678, state: "pending" });
    expect(changed.headers.get("etag")).not.toBe(etag);
    // Another user's poll with no version gets the list whole.
    expect((await invoke(mod.queue, "GET", "/api/incoming-wires", { as: admin })).status).toBe(200);
  });

  it("is for wires.act only: viewers and preparers are refused, admins allowed, no session is a 401", async () => {
    expect((await invoke(mod.queue, "GET", "/api/incoming-wires", { as: viewer })).status).toBe(403);
    expect((await invoke(mod.queue, "GET", "/api/incoming-wires", { as: preparer })).status).toBe(403);
    expect((await invoke(mod.queue, "GET", "/api/incoming-wires", { as: admin })).status).toBe(200);
    expect((await invoke(mod.queue, "GET", "/api/incoming-wires")).status).toBe(401);
    const w = await incomingWire(5);
    const r = await decide(preparer, w, "approve");
    expect(r.status).toBe(403);
    expect((await atBank(dda, w.id)).payment_status).toBe("Pre-Approval");
  });
});

describe("decisions", () => {
  it("approves a wire: it leaves the queue, shows in Decided today with who, and is credited once at settlement", async () => {
    const w = await incomingWire(777.77);
    const r = await decide(approver, w, "approve");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ outcome: "sent", bankStatus: "In-Progress", action: "approve" });
    expect((await atBank(dda, w.id)).payment_status).toBe("In-Progress");
    const q = await queue();
    expect(rowOf(q, w.id)).toBeUndefined();
    expect(q.decidedToday.find((d) => d.paymentId === w.id)).toMatchObject({
      action: "approve",
      decidedBy: [approver.email],
      channel: "primary",
      bankStatus: "In-Progress",
      amountCents: 77_777,
    });
    await sandbox(bank, "POST", "/sandbox/settle", {});
    expect((await atBank(dda, w.id)).payment_status).toBe("Complete");
    expect((await queue()).decidedToday.find((d) => d.paymentId === w.id)?.bankStatus).toBe("Complete");
    const audit = await auditFor(w.id);
    expect(audit.map((e) => [e.action, e.result])).toEqual([["incoming_wire.approve", "In-Progress"]]);
    expect(audit[0].detail).toMatchObject({ channel: "primary", bank: { payment_status: "In-Progress" } });
  });

  it("cancels a wire: Canceled at the bank, no return wire", async () => {
    const w = await incomingWire(300);
    const r = await decide(admin, w, "cancel");
    expect(r.status).toBe(200);
    expect(r.json.bankStatus).toBe("Canceled");
    expect((await atBank(dda, w.id)).payment_status).toBe("Canceled");
    expect(
      (await paymentsOf(dda)).filter((p) => p.originator_to_beneficiary_info_line.includes(w.id)),
    ).toEqual([]);
  });

  it("returns a wire: Canceled, and a linked outgoing return wire (sub-type 02 on the same day)", async () => {
    const w = await incomingWire(450.5);
    const r = await decide(approver, w, "return");
    expect(r.status).toBe(200);
    expect((await atBank(dda, w.id)).payment_status).toBe("Canceled");
    const ret = (await paymentsOf(dda)).filter((p) => p.payment_id.startsWith("R") && p.amount === 450.5);
    expect(ret).toHaveLength(1);
    expect(ret[0]).toMatchObject({ fedwire_sub_type: "02", beneficiary_name: w.originatorName });
  });

  it("refuses a wire someone else decided a second earlier with who and its real state, and sends nothing", async () => {
    const w = await incomingWire(61);
    expect((await decide(approver, w, "approve")).status).toBe(200);
    client.sent = [];
    const r = await decide(admin, w, "cancel");
    expect(r.status).toBe(409);
    expect(r.json.error.message).toContain(`approved by ${approver.email}`);
    expect(r.json.error.message).toContain("In-Progress");
    expect(client.sent).toEqual([]);
    expect((await atBank(dda, w.id)).payment_status).toBe("In-Progress");
  });

  it("lets exactly one of two approvers acting at the same moment reach the bank", async () => {
    const w = await incomingWire(62);
    const [a, b] = await Promise.all([decide(approver, w, "approve"), decide(admin, w, "cancel")]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(client.sent.filter((n) => n === "paymentAction")).toHaveLength(1);
    const won = a.status === 200 ? "In-Progress" : "Canceled";
    expect((await atBank(dda, w.id)).payment_status).toBe(won);
  });

  it("refuses a stale payment timestamp without sending, naming the field and what changed", async () => {
    const w = await incomingWire(63);
    const r = await decide(approver, w, "approve", { paymentTimestamp: "2020-01-01 00:00:00.000" });
    expect(r.status).toBe(409);
    expect(r.json.error.fields[0].field).toBe("paymentTimestamp");
    expect(client.sent).not.toContain("paymentAction");
    expect((await atBank(dda, w.id)).payment_status).toBe("Pre-Approval");
    // The row is still there, with the timestamp that works.
    expect(rowOf(await queue(), w.id)?.paymentTimestamp).toBe(w.timestamp);
  });

  it("says what changed when the wire was decided at the bank outside the dashboard", async () => {
    const w = await incomingWire(64);
    const direct = await client.call("paymentAction", {
      query: { account_number: dda, payment_id: w.id, action: "cancel", timestamp: w.timestamp },
    });
    expect(direct.ok).toBe(true);
    client.sent = [];
    const r = await decide(approver, w, "approve");
    expect(r.status).toBe(409);
    expect(r.json.error.message).toContain("already Canceled");
    expect(client.sent).toEqual(["listPayments"]);
  });

  it("answers 400 naming the field for bad input, and 404 for an unknown wire; nothing is recorded", async () => {
    const w = await incomingWire(65);
    const bad = await decide(approver, w, "accept");
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.map((f: { field: string }) => f.field)).toContain("action");
    const noTs = await decide(approver, w, "approve", { paymentTimestamp: "yesterday" });
    expect(noTs.status).toBe(400);
    expect(noTs.json.error.fields[0].field).toBe("paymentTimestamp");
    const noAcct = await decide(approver, w, "approve", { accountNumber: "" });
    expect(noAcct.json.error.fields[0].field).toBe("accountNumber");
    const badId = await invoke(mod.decide, "POST", "/api/incoming-wires/x%27", {
      as: approver,
      params: { paymentId: "x'" },
      body: { accountNumber: dda, action: "approve", paymentTimestamp: w.timestamp },
    });
    // A payment id the bank's rules refuse names no payment: 404, before any call to the bank.
    expect(badId.status).toBe(404);
    expect(badId.json.error.fields[0].field).toBe("paymentId");
    const unknown = await decide(approver, { ...w, id: "I000000NOSUCH01" }, "approve");
    expect(unknown.status).toBe(404);
    expect(client.sent).not.toContain("paymentAction");
    expect((await atBank(dda, w.id)).payment_status).toBe("Pre-Approval");
    expect(await auditFor(w.id)).toEqual([]);
  });
});

describe("two approvers above the limit", () => {
  it("records the first vote without sending; the second approver's agreement sends it, once", async () => {
    const w = await incomingWire(1_500_000, dda);
    const first = await decide(approver, w, "approve");
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ outcome: "awaiting_second_approval" });
    expect(client.sent).not.toContain("paymentAction");
    expect((await atBank(dda, w.id)).payment_status).toBe("Pre-Approval");
    const row = rowOf(await queue(), w.id);
    expect(row).toMatchObject({ state: "awaiting_second_approval", needsTwoApprovers: true });
    expect(row?.votes).toEqual([expect.objectContaining({ userEmail: approver.email, action: "approve" })]);

    // The same approver again is still one approver.
    const again = await decide(approver, w, "approve");
    expect(again.json.outcome).toBe("awaiting_second_approval");
    expect(client.sent).not.toContain("paymentAction");

    const second = await decide(admin, w, "approve");
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ outcome: "sent", bankStatus: "In-Progress" });
    expect(client.sent.filter((n) => n === "paymentAction")).toHaveLength(1);
    const decided = (await queue()).decidedToday.find((d) => d.paymentId === w.id);
    expect(decided?.decidedBy).toEqual([approver.email, admin.email]);
    const third = await decide(approver, w, "approve");
    expect(third.status).toBe(409);
    expect(client.sent.filter((n) => n === "paymentAction")).toHaveLength(1);
    const audit = await auditFor(w.id);
    expect(audit.map((e) => e.action)).toEqual([
      "incoming_wire.vote",
      "incoming_wire.vote",
      "incoming_wire.approve",
    ]);
  });

  it("does not send when the two approvers disagree", async () => {
    const w = await incomingWire(2_000_000, dda);
    expect((await decide(approver, w, "approve")).json.outcome).toBe("awaiting_second_approval");
    expect((await decide(admin, w, "return")).json.outcome).toBe("awaiting_second_approval");
    expect(client.sent).not.toContain("paymentAction");
    expect(
      rowOf(await queue(), w.id)
        ?.votes.map((v) => v.action)
        .sort(),
    ).toEqual(["approve", "return"]);
    expect((await atBank(dda, w.id)).payment_status).toBe("Pre-Approval");
  });
});

describe("wire-system outage", () => {
  it("queues the approval through the backup, shows it queued, and completes the payment once when the system is back", async () => {
    const w = await incomingWire(888.88);
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
    try {
      const r = await decide(approver, w, "approve");
      expect(r.status).toBe(200);
      expect(r.json.outcome).toBe("queued");
      expect(client.sent).toEqual(["listPayments", "paymentAction", "paymentActionBackup"]);
      expect((await atBank(dda, w.id)).payment_status).toBe("Pre-Approval");
      const row = rowOf(await queue(), w.id);
      expect(row).toMatchObject({ state: "queued", pendingAction: "approve" });
      // A second approver cannot send it again while it waits.
      client.sent = [];
      expect((await decide(admin, w, "approve")).status).toBe(409);
      expect(client.sent).toEqual([]);
    } finally {
      const up = await sandbox<{ replayed: number }>(bank, "POST", "/sandbox/wire-system", { status: "up" });
      expect(up.replayed).toBeGreaterThanOrEqual(1);
    }
    expect((await atBank(dda, w.id)).payment_status).toBe("In-Progress");
    const q = await queue();
    expect(rowOf(q, w.id)).toBeUndefined();
    expect(q.decidedToday.find((d) => d.paymentId === w.id)).toMatchObject({
      channel: "backup",
      state: "done",
      bankStatus: "In-Progress",
    });
    await sandbox(bank, "POST", "/sandbox/settle", {});
    expect((await atBank(dda, w.id)).payment_status).toBe("Complete");
    // Credited once: one history entry carries the payment id.
    const today = new Date().toISOString().slice(0, 10);
    const h = await client.call("history", {
      query: { accountNumber: dda, beginDate: addDays(today, -1), endDate: addDays(today, 1) },
    });
    if (!h.ok) throw new Error(h.error.message);
    const credits = h.data.ResponseData.flatMap((d) => d.TRANSACTION).filter((t) => t.PaymentId === w.id);
    expect(credits).toHaveLength(1);
    expect(credits[0].TRANAMT).toBe(888.88);
    const audit = await auditFor(w.id);
    expect(audit.map((e) => [e.action, e.result])).toEqual([
      ["incoming_wire.fallback", "queued"],
      ["incoming_wire.approve", "queued"],
      ["incoming_wire.approve.settled", "In-Progress"],
    ]);
    expect(audit[0].detail).toMatchObject({ bank: { payment_status: "Pre-Approval" } });
  });

  it("sends a released outgoing wire to POST /v2/payment/backup on a 503, recording each send first", async () => {
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
    const steps: string[] = [];
    try {
      const sent = await sendOutgoingWire(
        client,
        {
          originator_account_number: dda,
          amount: 12.34,
          beneficiary_name: "ACME SUPPLY CO",
          beneficiary_account_number: "99887766",
          beneficiary_address1: "1 MAIN ST",
          receiving_bank_routing_id: "011000015",
        },
        "3f0d8a4e-7f4b-4a55-9a54-2b1e0c9d7e11",
        { beforeSend: async (channel) => void steps.push(channel) },
      );
      expect(steps).toEqual(["primary", "backup"]);
      expect(sent.channel).toBe("backup");
      expect(sent.result.ok).toBe(true);
      if (!sent.result.ok) return;
      expect(sent.primaryError?.status).toBe(503);
      const id = sent.result.data.payment_id;
      expect((await atBank(dda, id)).payment_status).toBe("Pre-Approval");
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
      expect((await atBank(dda, id)).payment_status).toBe("In-Progress");
    } finally {
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
    }
  });
});

describe("bank unreachable", () => {
  it("answers 503 for the queue and for a decision, and records nothing", async () => {
    const w = await incomingWire(66);
    const dead = new BankClient({
      bankUrl: "http://127.0.0.1:9",
      subscriptionKey: "sk_unreachable_key",
      tokens: new TokenManager({ db, bankUrl: "http://127.0.0.1:9", subscriptionKey: "sk_unreachable_key" }),
      retryBaseMs: 5,
    });
    setBankClient(dead);
    try {
      const q = await invoke(mod.queue, "GET", "/api/incoming-wires", { as: approver });
      expect(q.status).toBe(503);
      expect(q.json.error.code).toBe("bank_unavailable");
      const r = await decide(approver, w, "approve");
      expect(r.status).toBe(503);
    } finally {
      setBankClient(client);
    }
    expect(await auditFor(w.id)).toEqual([]);
    expect(rowOf(await queue(), w.id)?.state).toBe("pending");
    expect((await atBank(dda, w.id)).payment_status).toBe("Pre-Approval");
  });
});

describe("e-wire summaries", () => {
  it("lists the day's incoming summaries of an account, and finds one by a history item's UniqueId", async () => {
    const w = await incomingWire(1_010.1);
    expect((await decide(approver, w, "approve")).status).toBe(200);
    await sandbox(bank, "POST", "/sandbox/settle", {});
    const today = (await atBank(dda, w.id)).payment_date;
    const r = await invoke(
      mod.summaries,
      "GET",
      `/api/wire-summaries?accountNumber=${dda}&date=${today}&direction=I`,
      { as: viewer },
    );
    expect(r.status).toBe(200);
    const mine = r.json.summaries.find(
      (s: { originatorName: string }) => s.originatorName === w.originatorName,
    );
    expect(mine).toMatchObject({
      amountCents: 101_010,
      direction: "I",
      status: "Complete",
      beneficiaryId: dda,
    });

    const byId = await invoke(
      mod.summaries,
      "GET",
      `/api/wire-summaries?uniqueId=${encodeURIComponent(mine.uniqueId)}`,
      { as: viewer },
    );
    expect(byId.status).toBe(200);
    expect(byId.json.summaries).toHaveLength(1);
    expect(byId.json.summaries[0].transactionNumber).toBe(mine.transactionNumber);
  });

  it("names the missing fields, and says so when a unique id has no summary yet", async () => {
    const r = await invoke(mod.summaries, "GET", `/api/wire-summaries?accountNumber=${dda}`, {
      as: viewer,
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["date", "direction"]);
    const impossible = await invoke(
      mod.summaries,
      "GET",
      `/api/wire-summaries?accountNumber=${dda}&date=2026-02-30&direction=I`,
      { as: viewer },
    );
    expect(impossible.status).toBe(400);
    expect(impossible.json.error.fields).toEqual([{ field: "date", message: "is not a calendar date" }]);
    const none = await invoke(mod.summaries, "GET", "/api/wire-summaries?uniqueId=bm90LWEtcmVhbC1pZA", {
      as: viewer,
    });
    expect(none.status).toBe(200);
    expect(none.json.summaries).toEqual([]);
    expect(none.json.notice).toMatch(/no e-wire summary/);
  });
});

describe("the audit log's filters and CSV export", () => {
  it("reads a day as the dashboard's day: 23:30 in New York is that day, though already the next in UTC", async () => {
    expect(config().timeZone).toBe("America/New_York");
    // 2026-03-07 23:30 EST is 2026-03-08 04:30 UTC; 2026-03-08 23:30 EDT (after the clocks moved)
    // is 2026-03-09 03:30 UTC.
    const late = [
      ["2026-03-08T04:30:00Z", "late.before_dst"],
      ["2026-03-09T03:30:00Z", "late.after_dst"],
    ];
    for (const [at, target] of late)
      await db.query(
        "INSERT INTO audit_log (at, actor_email, action, target, result) VALUES ($1, $2, 'test.late', $3, 'ok')",
        [at, admin.email, target],
      );
    const on = async (day: string) =>
      (
        await invoke(mod.audit, "GET", `/api/admin/audit?action=test.late&from=${day}&to=${day}`, {
          as: admin,
        })
      ).json.entries.map((e: { target: string }) => e.target);
    expect(await on("2026-03-07")).toEqual(["late.before_dst"]);
    expect(await on("2026-03-08")).toEqual(["late.after_dst"]);
    expect(await on("2026-03-09")).toEqual([]);
  });

  it("filters by who, action and day, and exports the same filter as CSV", async () => {
    const w = await incomingWire(2_500_000);
    expect((await decide(approver, w, "approve")).json.outcome).toBe("awaiting_second_approval");
    const votes = await invoke(
      mod.audit,
      "GET",
      "/api/admin/audit?action=incoming_wire.vote&actor=APPROVER@",
      {
        as: admin,
      },
    );
    expect(votes.status).toBe(200);
    expect(votes.json.entries.length).toBeGreaterThan(0);
    for (const e of votes.json.entries) {
      expect(e.action).toBe("incoming_wire.vote");
      expect(e.actorEmail).toBe(approver.email);
    }
    expect(votes.json.entries.map((e: { target: string }) => e.target)).toContain(w.id);

    // Days are the dashboard's (New York here), the days the audit page shows its times in.
    const today = businessDayFormatter(config().timeZone)(new Date());
    const inDay = await invoke(mod.audit, "GET", `/api/admin/audit?from=${today}&to=${today}&actor=admin@`, {
      as: admin,
    });
    expect(inDay.json.entries.every((e: { actorEmail: string }) => e.actorEmail === admin.email)).toBe(true);
    const yesterday = addDays(today, -1);
    const none = await invoke(mod.audit, "GET", `/api/admin/audit?from=${yesterday}&to=${yesterday}`, {
      as: admin,
    });
    expect(none.json.entries).toEqual([]);
    // LIKE wildcards typed into "who" match themselves only.
    const wild = await invoke(mod.audit, "GET", "/api/admin/audit?actor=%25", { as: admin });
    expect(wild.json.entries).toEqual([]);

    const bad = await invoke(mod.audit, "GET", `/api/admin/audit?from=${today}&to=${yesterday}`, {
      as: admin,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields[0].field).toBe("to");
    const impossible = await invoke(mod.audit, "GET", "/api/admin/audit?from=2026-02-30", { as: admin });
    expect(impossible.status).toBe(400);
    expect(impossible.json.error.fields[0].field).toBe("from");

    const csv = await invoke(
      mod.auditExport,
      "GET",
      "/api/admin/audit/export?action=incoming_wire.vote&actor=APPROVER@",
      {
        as: admin,
      },
    );
    expect(csv.status).toBe(200);
    expect(csv.text.startsWith('"When (UTC)","Who","Action","Target","Result","IP","Detail"\r\n')).toBe(true);
    const rows = parseCsv(csv.text).slice(1);
    expect(rows.length).toBe(votes.json.entries.length);
    const mine = rows.find((r) => r[3] === w.id);
    expect(mine?.slice(1, 5)).toEqual([
      approver.email,
      "incoming_wire.vote",
      w.id,
      "awaiting_second_approval",
    ]);
    expect(JSON.parse(mine?.[6] ?? "{}")).toMatchObject({ action: "approve", amountCents: 250_000_000 });
    expect((await invoke(mod.auditExport, "GET", "/api/admin/audit/export", { as: approver })).status).toBe(
      403,
    );
  });
});

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
