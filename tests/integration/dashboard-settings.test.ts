// Administrator settings through their route handler, on a real dashboard database: defaults, a
// lowering that applies at once and a raise that waits for a second administrator, each audited
// with the old value; refusals for other roles and bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDashboardSettings } from "../../lib/admin/settings-store.ts";
import { readAudit } from "../../lib/audit/log.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { cookieFor, invoke, openTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

process.env.NEXTAUTH_SECRET = "settings-test-secret-0123456789abcdef";
process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";

const route = () => import("../../app/api/admin/settings/route.ts");
let dashboard: TestDashboardDb;
let db: DashboardDb;
let admin: UserRow;
let admin2: UserRow;
let approver: UserRow;

beforeAll(async () => {
  dashboard = await openTestDashboardDb("dashboard-settings");
  db = dashboard.db;
  admin = await testUser(db, "admin", "admin@settings.example", "Ada", "x".repeat(14));
  admin2 = await testUser(db, "admin", "admin2@settings.example", "Bea", "x".repeat(14));
  approver = await testUser(db, "approver", "approver@settings.example", "Abe", "x".repeat(14));
}, 60_000);

afterAll(() => dashboard?.close());

describe("administrator settings", () => {
  it("starts at the defaults: 250,000.00 for SEN release and 1,000,000.00 for two approvers in and out", async () => {
    const r = await invoke(route, "GET", "/api/admin/settings", { cookie: await cookieFor(admin) });
    expect(r.status).toBe(200);
    expect(r.json.settings).toEqual({
      senReleaseThresholdCents: 25_000_000,
      incomingWireDualApprovalCents: 100_000_000,
      releaseDualApprovalCents: 100_000_000,
      approvalDigestAfterMinutes: 60,
    });
    expect(r.json.changed).toEqual({});
    expect(r.json.pending).toEqual([]);
  });

  it("stores a change, says who made it, and audits the old and new value", async () => {
    const r = await invoke(route, "PUT", "/api/admin/settings", {
      cookie: await cookieFor(admin),
      body: { senReleaseThresholdCents: 5_000_000 },
    });
    expect(r.status).toBe(200);
    expect(r.json.settings.senReleaseThresholdCents).toBe(5_000_000);
    expect(r.json.settings.incomingWireDualApprovalCents).toBe(100_000_000);
    expect(r.json.changed.senReleaseThresholdCents.by).toBe("admin@settings.example");
    expect(await getDashboardSettings(db)).toEqual({
      senReleaseThresholdCents: 5_000_000,
      incomingWireDualApprovalCents: 100_000_000,
      releaseDualApprovalCents: 100_000_000,
      approvalDigestAfterMinutes: 60,
    });
    const audit = (await readAudit(db, 10)).filter((e) => e.action === "settings.update");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorEmail: "admin@settings.example",
      target: "senReleaseThresholdCents",
      detail: { from: 25_000_000, to: 5_000_000 },
    });
  });

  it("stores a raise only when a second administrator approves it, and says who asked and who approved", async () => {
    const asked = await invoke(route, "PUT", "/api/admin/settings", {
      cookie: await cookieFor(admin),
      body: { incomingWireDualApprovalCents: 150_000_000 },
    });
    expect(asked.status).toBe(202);
    expect(asked.json.settings.incomingWireDualApprovalCents).toBe(100_000_000);
    expect(asked.json.pending).toEqual([
      expect.objectContaining({
        before: 100_000_000,
        after: 150_000_000,
        requestedBy: expect.objectContaining({ email: admin.email }),
      }),
    ]);
    const id = asked.json.requested[0].id as string;
    const approve = () => import("../../app/api/admin/changes/[id]/approve/route.ts");
    const own = await invoke(approve, "POST", `/api/admin/changes/${id}/approve`, {
      cookie: await cookieFor(admin),
      params: { id },
    });
    expect(own.status).toBe(403);
    expect((await getDashboardSettings(db)).incomingWireDualApprovalCents).toBe(100_000_000);
    const second = await invoke(approve, "POST", `/api/admin/changes/${id}/approve`, {
      cookie: await cookieFor(admin2),
      params: { id },
    });
    expect(second.status).toBe(200);
    expect(await getDashboardSettings(db)).toEqual({
      senReleaseThresholdCents: 5_000_000,
      incomingWireDualApprovalCents: 150_000_000,
      releaseDualApprovalCents: 100_000_000,
      approvalDigestAfterMinutes: 60,
    });
    const r = await invoke(route, "GET", "/api/admin/settings", { cookie: await cookieFor(admin2) });
    expect(r.json.changed.incomingWireDualApprovalCents.by).toBe("admin@settings.example");
    expect(r.json.pending).toEqual([]);
    const audit = (await readAudit(db, 20)).filter((e) => e.action === "settings.update");
    expect(audit[0]).toMatchObject({
      target: "incomingWireDualApprovalCents",
      detail: { from: 100_000_000, to: 150_000_000, approvedBy: "admin2@settings.example" },
    });
  });

  it("refuses every role but the administrator's, and changes nothing", async () => {
    const r = await invoke(route, "PUT", "/api/admin/settings", {
      cookie: await cookieFor(approver),
      body: { senReleaseThresholdCents: 1 },
    });
    expect(r.status).toBe(403);
    expect((await getDashboardSettings(db)).senReleaseThresholdCents).toBe(5_000_000);
    expect(
      (await invoke(route, "GET", "/api/admin/settings", { cookie: await cookieFor(approver) })).status,
    ).toBe(403);
  });

  it.each([
    [{ senReleaseThresholdCents: -5 }, "senReleaseThresholdCents"],
    [{ senReleaseThresholdCents: 10.5 }, "senReleaseThresholdCents"],
    [{ incomingWireDualApprovalCents: "100" }, "incomingWireDualApprovalCents"],
    [{ releaseDualApprovalCents: 0 }, "releaseDualApprovalCents"],
    [{ approvalDigestAfterMinutes: 0 }, "approvalDigestAfterMinutes"],
    [{ approvalDigestAfterMinutes: 1.5 }, "approvalDigestAfterMinutes"],
    [{ approvalDigestAfterMinutes: 10_081 }, "approvalDigestAfterMinutes"],
    [{ somethingElse: 1 }, "body"],
  ])("answers 400 naming the field for %j, and changes nothing", async (body, field) => {
    const r = await invoke(route, "PUT", "/api/admin/settings", { cookie: await cookieFor(admin), body });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await getDashboardSettings(db)).toEqual({
      senReleaseThresholdCents: 5_000_000,
      incomingWireDualApprovalCents: 150_000_000,
      releaseDualApprovalCents: 100_000_000,
      approvalDigestAfterMinutes: 60,
    });
  });
  it("treats the release two-approver limit as a limit: lowered at once, raised only with a second administrator", async () => {
    const lowered = await invoke(route, "PUT", "/api/admin/settings", {
      cookie: await cookieFor(admin),
      body: { releaseDualApprovalCents: 90_000_000 },
    });
    expect(lowered.status).toBe(200);
    expect((await getDashboardSettings(db)).releaseDualApprovalCents).toBe(90_000_000);
    const raised = await invoke(route, "PUT", "/api/admin/settings", {
      cookie: await cookieFor(admin),
      body: { releaseDualApprovalCents: 120_000_000 },
    });
    expect(raised.status).toBe(202);
    expect((await getDashboardSettings(db)).releaseDualApprovalCents).toBe(90_000_000);
    expect(raised.json.requested).toEqual([
      expect.objectContaining({ before: 90_000_000, after: 120_000_000 }),
    ]);
  });
});
