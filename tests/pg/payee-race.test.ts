// Approvers deciding one payee change at the same moment, with the dashboard database on a real
// PostgreSQL server (PGlite's single connection would serialise them): every round exactly one
// decision wins, the others answer 409, and the beneficiary ends with the details that decision
// says (the new ones when approved, the approved ones when rejected).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { PG_URL } from "../helpers/databases.ts";
import { invoke, openPgTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("payee changes on PostgreSQL under concurrency", () => {
  let db: DashboardDb;
  let dashboard: TestDashboardDb;
  let preparer: UserRow;
  const approvers: UserRow[] = [];

  beforeAll(async () => {
    dashboard = await openPgTestDashboardDb();
    ({ db } = dashboard);
    preparer = await testUser(db, "preparer", "prep@payee-race.example", "Prep");
    for (let i = 0; i < 3; i++)
      approvers.push(await testUser(db, "approver", `appr${i}@payee-race.example`, `Appr ${i}`));
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  const mod = {
    beneficiaries: () => import("../../app/api/beneficiaries/route.ts"),
    beneficiary: () => import("../../app/api/beneficiaries/[id]/route.ts"),
    approve: () => import("../../app/api/beneficiaries/[id]/approve/route.ts"),
    reject: () => import("../../app/api/beneficiaries/[id]/reject/route.ts"),
  };
  // Labels told apart by words (look-alike payees are refused; a 0 reads as an O and a 1 as an l).
  const WORDS = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "Kilo", "Mike"];
  // Each payee its own name: a new payee whose name reads like a saved one is refused.
  const fields = (account: string, label: string) => ({
    beneficiary_name: `Payee ${label}`,
    beneficiary_account_number: account,
    beneficiary_address1: "3 Side Street",
    receiving_bank_routing_id: "021000021",
  });

  it("decides each change once however many approvers approve or reject it together", async () => {
    for (let round = 0; round < 10; round++) {
      const made = await invoke(mod.beneficiaries, "POST", "/x", {
        as: preparer,
        body: { label: `Race ${WORDS[round]}`, fields: fields("1000", `Race ${WORDS[round]}`) },
      });
      expect(made.status, JSON.stringify(made.json)).toBe(200);
      const id = made.json.beneficiary.id;
      const first = await invoke(mod.approve, "POST", "/x", {
        as: approvers[0],
        params: { id },
        body: { changeId: made.json.beneficiary.pendingChange.id },
      });
      expect(first.status).toBe(200);
      const changed = await invoke(mod.beneficiary, "PUT", "/x", {
        as: preparer,
        params: { id },
        body: { label: `Race ${WORDS[round]}`, fields: fields(`2000${round}`, `Race ${WORDS[round]}`) },
      });
      const changeId = changed.json.beneficiary.pendingChange.id;
      // Approvers 0 and 1 approve, approver 2 rejects, all at once.
      const answers = await Promise.all(
        approvers.map((a, i) =>
          invoke(i < 2 ? mod.approve : mod.reject, "POST", "/x", {
            as: a,
            params: { id },
            body: { changeId },
          }),
        ),
      );
      const won = answers.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      expect(answers.filter((r) => r.status === 409)).toHaveLength(2);
      const rows = await db.query<{ status: string; n: string }>(
        "SELECT status, count(*) AS n FROM beneficiary_changes WHERE beneficiary_id = $1 GROUP BY status",
        [id],
      );
      expect(rows.find((r) => r.status === "pending")).toBeUndefined();
      const decided = won[0].json.change.status;
      const after = await db.query<{ fields: Record<string, string> }>(
        "SELECT fields FROM beneficiaries WHERE id = $1",
        [id],
      );
      expect(after[0].fields.beneficiary_account_number).toBe(
        decided === "approved" ? `2000${round}` : "1000",
      );
    }
  });

  it("two people changing one beneficiary's account at once: one change waits, the other is told so", async () => {
    for (let round = 0; round < 10; round++) {
      const made = await invoke(mod.beneficiaries, "POST", "/x", {
        as: preparer,
        body: { label: `Twice ${WORDS[round]}`, fields: fields("3000", `Twice ${WORDS[round]}`) },
      });
      const id = made.json.beneficiary.id;
      await invoke(mod.approve, "POST", "/x", {
        as: approvers[0],
        params: { id },
        body: { changeId: made.json.beneficiary.pendingChange.id },
      });
      const answers = await Promise.all(
        [preparer, approvers[1]].map((as, i) =>
          invoke(mod.beneficiary, "PUT", "/x", {
            as,
            params: { id },
            body: {
              label: `Twice ${WORDS[round]}`,
              fields: fields(`400${i}${round}`, `Twice ${WORDS[round]}`),
            },
          }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const pending = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM beneficiary_changes WHERE beneficiary_id = $1 AND status = 'pending'",
        [id],
      );
      expect(Number(pending[0].n)).toBe(1);
    }
  });

  it("an approval racing its author's correction of a new beneficiary approves only what was reviewed", async () => {
    for (let round = 0; round < 10; round++) {
      const made = await invoke(mod.beneficiaries, "POST", "/x", {
        as: preparer,
        body: { label: `Fix ${WORDS[round]}`, fields: fields("5000", `Fix ${WORDS[round]}`) },
      });
      const id = made.json.beneficiary.id;
      const [approved, corrected] = await Promise.all([
        invoke(mod.approve, "POST", "/x", {
          as: approvers[0],
          params: { id },
          body: { changeId: made.json.beneficiary.pendingChange.id },
        }),
        invoke(mod.beneficiary, "PUT", "/x", {
          as: preparer,
          params: { id },
          body: { label: `Fix ${WORDS[round]}`, fields: fields(`6000${round}`, `Fix ${WORDS[round]}`) },
        }),
      ]);
      expect(corrected.status).toBe(200);
      const now = corrected.json.beneficiary;
      if (approved.status === 200) {
        // Approved first: the correction is a change of its own, waiting, the reviewed account in place.
        expect(now).toMatchObject({ status: "changed", fields: { beneficiary_account_number: "5000" } });
      } else {
        // Corrected first: the reviewed version was replaced, and the new one waits to be approved.
        expect(approved.status).toBe(409);
        expect(now).toMatchObject({ status: "new", fields: { beneficiary_account_number: `6000${round}` } });
      }
    }
  });
});
