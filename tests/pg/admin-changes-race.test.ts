// Approvals of one waiting change at the same moment, with the dashboard database on a real
// PostgreSQL server (PGlite's single connection would serialise them): every round the change is
// applied once, one approval wins and the others answer 409; an approval racing a change that
// tightens the same setting never leaves the raise in force over the tighter value.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDashboardSettings } from "../../lib/admin/settings-store.ts";
import { readAudit } from "../../lib/audit/log.ts";
import { findUserById, type UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { PG_URL } from "../helpers/databases.ts";
import { invoke, openPgTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("approving a waiting change on PostgreSQL under concurrency", () => {
  let db: DashboardDb;
  let dashboard: TestDashboardDb;
  let asker: UserRow;
  const approvers: UserRow[] = [];

  const settings = () => import("../../app/api/admin/settings/route.ts");
  const approve = () => import("../../app/api/admin/changes/[id]/approve/route.ts");
  const user = () => import("../../app/api/admin/users/[id]/route.ts");

  beforeAll(async () => {
    dashboard = await openPgTestDashboardDb();
    ({ db } = dashboard);
    asker = await testUser(db, "admin", "asker@race.example", "Asker");
    for (let i = 0; i < 3; i++)
      approvers.push(await testUser(db, "admin", `second${i}@race.example`, `Second ${i}`));
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  const approveAll = (id: string) =>
    Promise.all(
      approvers.map((a) =>
        invoke(approve, "POST", `/api/admin/changes/${id}/approve`, { as: a, params: { id } }),
      ),
    );

  it("applies a raised limit once however many administrators approve it together", async () => {
    for (let round = 1; round <= 10; round++) {
      const value = 25_000_000 + round * 1_000_000;
      const asked = await invoke(settings, "PUT", "/api/admin/settings", {
        as: asker,
        body: { senReleaseThresholdCents: value },
      });
      expect(asked.status, `round ${round}`).toBe(202);
      const id = asked.json.requested[0].id as string;
      const replies = await approveAll(id);
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses, `round ${round}: ${JSON.stringify(replies.map((r) => r.json))}`).toEqual([
        200, 409, 409,
      ]);
      expect((await getDashboardSettings(db)).senReleaseThresholdCents).toBe(value);
      const applied = (await readAudit(db, 1000)).filter(
        (e) => e.action === "settings.update" && e.detail?.changeId === id,
      );
      expect(applied).toHaveLength(1);
    }
  });

  it("grants a role once however many administrators approve it together", async () => {
    for (let round = 1; round <= 5; round++) {
      const u = await testUser(db, "viewer", `grantee${round}@race.example`, `Grantee ${round}`);
      const asked = await invoke(user, "PATCH", `/api/admin/users/${u.id}`, {
        as: asker,
        params: { id: u.id },
        body: { role: "approver" },
      });
      expect(asked.status).toBe(202);
      const id = asked.json.pending[0].id as string;
      const replies = await approveAll(id);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      expect((await findUserById(db, u.id))?.role).toBe("approver");
      const applied = (await readAudit(db, 1000)).filter(
        (e) => e.action === "user.update" && e.detail?.changeId === id,
      );
      expect(applied).toHaveLength(1);
    }
  });

  it("never leaves a raise in force over a tighter value set at the same moment", async () => {
    for (let round = 1; round <= 10; round++) {
      const start = (await getDashboardSettings(db)).incomingWireDualApprovalCents;
      const asked = await invoke(settings, "PUT", "/api/admin/settings", {
        as: asker,
        body: { incomingWireDualApprovalCents: start + 10_000_000 },
      });
      expect(asked.status).toBe(202);
      const id = asked.json.requested[0].id as string;
      const lower = start - 1_000_000;
      const [approved, lowered] = await Promise.all([
        invoke(approve, "POST", `/api/admin/changes/${id}/approve`, { as: approvers[0], params: { id } }),
        invoke(settings, "PUT", "/api/admin/settings", {
          as: approvers[1],
          body: { incomingWireDualApprovalCents: lower },
        }),
      ]);
      // Either order is right; both at once is not: the raise was asked against `start`.
      const now = (await getDashboardSettings(db)).incomingWireDualApprovalCents;
      if (approved.status === 200) {
        // The raise went first; the lowering came after it and stands.
        expect(lowered.status).toBe(200);
        expect(now).toBe(lower);
      } else {
        expect(approved.status).toBe(409);
        expect(approved.json.error.message).toMatch(/no longer applies/);
        expect(now).toBe(lower);
      }
    }
  });
});
