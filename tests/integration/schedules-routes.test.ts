// The Scheduled page's routes, invoked as Next invokes them against the real bank: a preparer's
// series (one per form key), a bad schedule answered 400 naming its field, the preparer refused
// approval of their own series, an approver's approval, skip, pause and resume, each audited; a
// series' edits, a wire series' new payee among them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAudit } from "../../lib/audit/log.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { BeneficiaryTemplate } from "../../lib/dashboard-api/wires.ts";
import { createBeneficiary } from "../../lib/payments/beneficiaries.ts";
import { decideBeneficiaryChange } from "../../lib/payments/payee-approvals.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

let world: RouteWorld;
let preparer: UserRow;
let approver: UserRow;
let approver2: UserRow;
let viewer: UserRow;
let from: string;
let to: string;

const mod = {
  list: () => import("../../app/api/schedules/route.ts"),
  one: () => import("../../app/api/schedules/[id]/route.ts"),
  approve: () => import("../../app/api/schedules/[id]/approve/route.ts"),
  status: () => import("../../app/api/schedules/[id]/status/route.ts"),
  skip: () => import("../../app/api/schedules/[id]/skip/route.ts"),
};

beforeAll(async () => {
  world = await openRouteWorld("schedules-routes", { customer: "Schedules Routes Inc" });
  preparer = await testUser(world.db, "preparer", "prep@schedule-routes.example");
  approver = await testUser(world.db, "approver", "appr@schedule-routes.example");
  approver2 = await testUser(world.db, "approver", "appr2@schedule-routes.example");
  viewer = await testUser(world.db, "viewer", "view@schedule-routes.example");
  from = await world.customer.account("SEN", 1_000_000);
  to = await world.customer.account("SEN", 0);
}, 300_000);
afterAll(async () => {
  await world?.close();
});

const form = (over: Record<string, unknown> = {}, schedule: Record<string, unknown> = {}) => ({
  kind: "sen",
  name: "Route rent",
  schedule: {
    startsOn: "2030-01-01",
    pattern: { kind: "monthly-first-business-day" },
    count: 12,
    until: null,
    roll: "following",
    ...schedule,
  },
  transfer: {
    idempotencyKey: randomUUID(),
    AccountNumberFrom: from,
    AccountNumberTo: to,
    Amount: "300,000.00",
  },
  ...over,
});

describe("the schedule routes", () => {
  it("creates a series once per form key, says it in words and lists it with its next 90 days", async () => {
    const body = form();
    const made = await invoke(mod.list, "POST", "/api/schedules", { as: preparer, body });
    expect(made.status, made.text).toBe(200);
    expect(made.json.series).toMatchObject({
      words: "Monthly on the first business day, 12 times",
      amountCents: 30_000_000,
      approved: false,
      approvalsRequired: 1,
      nextDay: "2030-01-02",
    });
    const again = await invoke(mod.list, "POST", "/api/schedules", { as: preparer, body });
    expect(again.json.series.id).toBe(made.json.series.id);
    const listed = await invoke(mod.list, "GET", "/api/schedules", { as: viewer });
    expect(listed.status).toBe(200);
    expect(listed.json.series.filter((s: { id: string }) => s.id === made.json.series.id)).toHaveLength(1);
  });

  it("answers a bad schedule with 400 naming the field, and a viewer with 403", async () => {
    const bad = await invoke(mod.list, "POST", "/api/schedules", {
      as: preparer,
      body: form({}, { count: 0, until: "2029-01-01" }),
    });
    expect(bad.status).toBe(400);
    const fields = (bad.json.error.fields as { field: string }[]).map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["schedule.count", "schedule.until"]));
    const weekday = await invoke(mod.list, "POST", "/api/schedules", {
      as: preparer,
      body: form({}, { pattern: { kind: "weekly", everyWeeks: 1, weekday: "SA" } }),
    });
    expect(weekday.status).toBe(400);
    const denied = await invoke(mod.list, "POST", "/api/schedules", { as: viewer, body: form() });
    expect(denied.status).toBe(403);
  });

  it("refuses the preparer's own approval, takes an approver's, and audits skip, pause and resume", async () => {
    // An approver may prepare too: their own series still needs someone else.
    const made = await invoke(mod.list, "POST", "/api/schedules", {
      as: approver2,
      body: form({ name: "Route payroll" }),
    });
    const id = made.json.series.id as string;
    const preparerTries = await invoke(mod.approve, "POST", "/x", {
      as: preparer,
      body: { version: 1 },
      params: { id },
    });
    expect(preparerTries.status).toBe(403);
    const own = await invoke(mod.approve, "POST", "/x", {
      as: approver2,
      body: { version: 1 },
      params: { id },
    });
    expect(own.status).toBe(403);
    const ok = await invoke(mod.approve, "POST", "/x", {
      as: approver,
      body: { version: 1 },
      params: { id },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.series).toMatchObject({ approved: true, approvals: [{ email: approver.email }] });
    const twice = await invoke(mod.approve, "POST", "/x", {
      as: approver,
      body: { version: 1 },
      params: { id },
    });
    expect(twice.status).toBe(409);

    const skip = await invoke(mod.skip, "POST", "/x", {
      as: preparer,
      body: { nominalDay: "2030-01-01" },
      params: { id },
    });
    expect(skip.status, skip.text).toBe(200);
    expect(skip.json.history).toMatchObject([
      { nominalDay: "2030-01-01", day: "2030-01-02", status: "skipped" },
    ]);
    const notADay = await invoke(mod.skip, "POST", "/x", {
      as: preparer,
      body: { nominalDay: "2030-01-05" },
      params: { id },
    });
    expect(notADay.status).toBe(409);

    const pause = await invoke(mod.status, "POST", "/x", {
      as: preparer,
      body: { action: "pause" },
      params: { id },
    });
    expect(pause.json.series.status).toBe("paused");
    const pauseAgain = await invoke(mod.status, "POST", "/x", {
      as: preparer,
      body: { action: "pause" },
      params: { id },
    });
    expect(pauseAgain.status).toBe(409);
    const resume = await invoke(mod.status, "POST", "/x", {
      as: preparer,
      body: { action: "resume" },
      params: { id },
    });
    expect(resume.json.series.status).toBe("active");

    const audit = (await readAudit(world.db, 500)).filter((e) => e.target === id);
    expect(audit.map((e) => `${e.action} ${e.result}`)).toEqual(
      expect.arrayContaining([
        "schedule.create.sen ok",
        "schedule.approve denied",
        "schedule.approve approved",
        "schedule.skip ok",
        "schedule.pause ok",
        "schedule.pause stale",
        "schedule.resume ok",
      ]),
    );
  });

  it("edits through the route: a new name keeps the approval, another recipient needs it again; a cancel is audited", async () => {
    const body = form({ name: "Route edit" });
    const made = await invoke(mod.list, "POST", "/api/schedules", { as: preparer, body });
    expect(made.status, made.text).toBe(200);
    const id = made.json.series.id as string;
    const approved = await invoke(mod.approve, "POST", "/x", {
      as: approver,
      body: { version: 1 },
      params: { id },
    });
    expect(approved.json.series.approved).toBe(true);
    const edit = (version: number, over: Record<string, unknown>) =>
      invoke(mod.one, "PUT", "/x", {
        as: preparer,
        params: { id },
        body: {
          kind: "sen",
          version,
          name: body.name,
          schedule: body.schedule,
          transfer: body.transfer,
          ...over,
        },
      });
    const renamed = await edit(1, { name: "Route edit, renamed" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.series).toMatchObject({ name: "Route edit, renamed", version: 1, approved: true });
    const other = await world.customer.account("SEN", 0);
    const elsewhere = await edit(1, { transfer: { ...body.transfer, AccountNumberTo: other } });
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.json.series).toMatchObject({ version: 2, approved: false, counterparty: other });
    const stale = await edit(1, { name: "Route edit, stale" });
    expect(stale.status).toBe(409);
    const cancel = await invoke(mod.status, "POST", "/x", {
      as: preparer,
      body: { action: "cancel" },
      params: { id },
    });
    expect(cancel.json.series.status).toBe("cancelled");
    const audit = (await readAudit(world.db, 500)).filter((e) => e.target === id);
    expect(audit.map((e) => `${e.action} ${e.result}`)).toEqual(
      expect.arrayContaining(["schedule.edit ok", "schedule.edit stale", "schedule.cancel ok"]),
    );
    const edits = audit.filter((e) => e.action === "schedule.edit" && e.result === "ok");
    expect(edits.map((e) => (e.detail as { needsApprovalAgain: boolean }).needsApprovalAgain).sort()).toEqual(
      [false, true],
    );
  });

  it("a wire series keeps its kind: a new amount through the route keeps its payee and needs approval again; a SEN body is 400 naming kind, a viewer 403", async () => {
    const wire = {
      idempotencyKey: randomUUID(),
      originator_account_number: from,
      amount: "2,500.00",
      beneficiary_name: "Route Supplies LLC",
      beneficiary_account_number: "55443322",
      beneficiary_address1: "9 Dock Street",
      receiving_bank_routing_id: "021000021",
    };
    const schedule = form().schedule;
    const made = await invoke(mod.list, "POST", "/api/schedules", {
      as: preparer,
      body: { kind: "wire", name: "Route wire", schedule, wire },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json.series).toMatchObject({
      kind: "wire",
      counterparty: "Route Supplies LLC",
      amountCents: 250_000,
      beneficiaryId: null,
      approvalsRequired: 1,
    });
    const id = made.json.series.id as string;
    const edit = (as: UserRow, body: Record<string, unknown>) =>
      invoke(mod.one, "PUT", "/x", {
        as,
        params: { id },
        body: { version: 1, name: "Route wire", schedule, ...body },
      });

    // A SEN body on a wire series would make its occurrences send a transfer's request as a wire.
    const asSen = await edit(preparer, {
      kind: "sen",
      transfer: {
        idempotencyKey: randomUUID(),
        AccountNumberFrom: from,
        AccountNumberTo: to,
        Amount: "1.00",
      },
    });
    expect(asSen.status, asSen.text).toBe(400);
    expect(asSen.json.error.fields).toEqual([{ field: "kind", message: expect.stringContaining("wire") }]);
    const badAmount = await edit(preparer, { kind: "wire", wire: { ...wire, amount: "12.345" } });
    expect(badAmount.status).toBe(400);
    expect((badAmount.json.error.fields as { field: string }[]).map((f) => f.field)).toEqual(["wire.amount"]);
    const byViewer = await edit(viewer, { kind: "wire", wire: { ...wire, amount: "2,600.00" } });
    expect(byViewer.status).toBe(403);

    const changed = await edit(preparer, { kind: "wire", wire: { ...wire, amount: "2,600.00" } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.series).toMatchObject({
      kind: "wire",
      version: 2,
      amountCents: 260_000,
      counterparty: "Route Supplies LLC",
      approved: false,
    });
    expect(changed.json.series.request).toMatchObject({
      amount: 2600,
      originator_account_number: from,
      beneficiary_account_number: "55443322",
      receiving_bank_routing_id: "021000021",
    });
  });

  it("a wire series' payee changes through the route: another saved beneficiary or a typed account needs approval again, and the audit names both payees", async () => {
    const saved = async (label: string, fields: Record<string, string>) => {
      const b = await createBeneficiary(world.db, preparer, label, BeneficiaryTemplate.parse(fields));
      await decideBeneficiaryChange(world.db, approver, b.id, b.pendingChange?.id as string, "approve");
      return b.id;
    };
    const harbor = {
      beneficiary_name: "Route Harbor LLC",
      beneficiary_account_number: "11223344",
      beneficiary_address1: "1 Quay Road",
      receiving_bank_routing_id: "021000021",
    };
    const mill = {
      beneficiary_name: "Route Mill Co",
      beneficiary_account_number: "99887766",
      beneficiary_address1: "2 Weir Lane",
      receiving_bank_routing_id: "026009593",
    };
    const harborId = await saved("Route Harbor", harbor);
    const millId = await saved("Route Mill", mill);
    const schedule = form().schedule;
    const wire = (fields: Record<string, string>, beneficiaryId: string) => ({
      idempotencyKey: randomUUID(),
      beneficiaryId,
      originator_account_number: from,
      amount: "1,200.00",
      ...fields,
    });
    const made = await invoke(mod.list, "POST", "/api/schedules", {
      as: preparer,
      body: { kind: "wire", name: "Route payee wire", schedule, wire: wire(harbor, harborId) },
    });
    expect(made.status, made.text).toBe(200);
    const id = made.json.series.id as string;
    const approve = (version: number) =>
      invoke(mod.approve, "POST", "/x", { as: approver, body: { version }, params: { id } });
    expect((await approve(1)).json.series.approved).toBe(true);
    const edit = (version: number, w: Record<string, unknown>) =>
      invoke(mod.one, "PUT", "/x", {
        as: preparer,
        params: { id },
        body: { kind: "wire", version, name: "Route payee wire", schedule, wire: w },
      });

    // Another approved saved beneficiary: a new version, waiting for approval.
    const toMill = await edit(1, wire(mill, millId));
    expect(toMill.status, toMill.text).toBe(200);
    expect(toMill.json.series).toMatchObject({
      version: 2,
      approved: false,
      counterparty: mill.beneficiary_name,
      beneficiaryId: millId,
      amountCents: 120_000,
    });
    expect(toMill.json.series.request).toMatchObject(mill);
    // A saved beneficiary's name over an account it does not hold is refused, naming beneficiaryId.
    const mixed = await edit(2, wire({ ...mill, beneficiary_account_number: "12121212" }, millId));
    expect(mixed.status, mixed.text).toBe(400);
    expect((mixed.json.error.fields as { field: string }[]).map((f) => f.field)).toEqual(["beneficiaryId"]);
    expect((await approve(2)).json.series.approved).toBe(true);
    // A typed account under the same name, no saved beneficiary: approval again.
    const typed = await edit(2, wire({ ...mill, beneficiary_account_number: "12121212" }, ""));
    expect(typed.status, typed.text).toBe(200);
    expect(typed.json.series).toMatchObject({
      version: 3,
      approved: false,
      counterparty: mill.beneficiary_name,
      beneficiaryId: null,
    });
    expect(typed.json.series.request).toMatchObject({ beneficiary_account_number: "12121212" });

    const edits = (await readAudit(world.db, 500))
      .filter((e) => e.target === id && e.action === "schedule.edit" && e.result === "ok")
      .map(
        (e) => e.detail as { version: number; needsApprovalAgain: boolean; before: unknown; after: unknown },
      )
      .sort((a, b) => a.version - b.version);
    expect(edits).toEqual([
      expect.objectContaining({
        version: 2,
        needsApprovalAgain: true,
        before: expect.objectContaining({
          payee: { account: "11223344", bank: "021000021", beneficiaryId: harborId },
        }),
        after: expect.objectContaining({
          counterparty: mill.beneficiary_name,
          payee: { account: "99887766", bank: "026009593", beneficiaryId: millId },
        }),
      }),
      expect.objectContaining({
        version: 3,
        needsApprovalAgain: true,
        before: expect.objectContaining({
          payee: { account: "99887766", bank: "026009593", beneficiaryId: millId },
        }),
        after: expect.objectContaining({
          payee: { account: "12121212", bank: "026009593", beneficiaryId: null },
        }),
      }),
    ]);
  });
});
