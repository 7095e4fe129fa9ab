// A wire series filled from a saved payee is judged at each send as a wire made by hand is: an
// occurrence whose payee has a change waiting for a second person stops with that reason, and a
// "payee new or changed within N days" policy applies to it (its payee's facts are passed).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { policySetNow, writePolicySet } from "../../lib/approvals/facts.ts";
import type { Actor } from "../../lib/audit/log.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { isBusinessDay } from "../../lib/bank-api/business-days.ts";
import { getBankClient } from "../../lib/bank-client/index.ts";
import { BeneficiaryTemplate } from "../../lib/dashboard-api/wires.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { scheduleNoticesFor } from "../../lib/inbox/read.ts";
import { createBeneficiary } from "../../lib/payments/beneficiaries.ts";
import { decideBeneficiaryChange } from "../../lib/payments/payee-approvals.ts";
import { bankBusinessDate, runSchedules } from "../../lib/schedules/engine.ts";
import { approveSeries, createSeries, seriesHistory } from "../../lib/schedules/series.ts";
import { sandbox } from "../helpers/bank.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

let world: RouteWorld;
let db: DashboardDb;
let preparer: Actor;
let approver: Actor;
let approver2: Actor;
let users: UserRow[] = [];

beforeAll(async () => {
  world = await openRouteWorld("schedules-payees", {
    customer: "Schedules Payees Inc",
    bankEnv: { BANK_TOKEN_INTERVAL_SECONDS: "0", BANK_SETTLE_AFTER_SECONDS: "3600" },
  });
  db = world.db;
  const p = await testUser(db, "preparer", "prep@payees.example", "Prep");
  const a = await testUser(db, "approver", "appr@payees.example", "Appr");
  const b = await testUser(db, "approver", "appr2@payees.example", "Appr Two");
  preparer = { id: p.id, email: p.email };
  approver = { id: a.id, email: a.email };
  approver2 = { id: b.id, email: b.email };
  const o = await testUser(db, "preparer", "other@payees.example", "Other");
  users = [p, a, b, o];
}, 300_000);
afterAll(async () => {
  await world?.close();
});

const bank = () => getBankClient();
async function businessDay(): Promise<string> {
  let d = (await bankBusinessDate(await bank(), "America/New_York")) as string;
  while (!isBusinessDay(d))
    d = (
      await sandbox<{ businessDate: string }>(world.bank, "POST", "/sandbox/clock", {
        advanceSeconds: 86_400,
      })
    ).businessDate;
  return d;
}

describe("a wire series to a saved payee", () => {
  let harbor: Promise<string> | undefined;
  /**
   * The series of the first test, made and run through its three weeks once, by whichever test
   * asks first: the inbox test reads its failed occurrences, and also runs alone.
   */
  const harborSeries = () => (harbor ??= runHarborSeries());

  it("stops while the payee's change waits, then needs what a recently changed payee needs", async () => {
    await harborSeries();
  });

  async function runHarborSeries(): Promise<string> {
    const from = await world.customer.account("DDA", 50_000);
    const fields = {
      beneficiary_name: "Harbor Supplies LLC",
      beneficiary_account_number: "55443322",
      beneficiary_address1: "9 Dock Street",
      receiving_bank_routing_id: "021000021",
    };
    const payee = await createBeneficiary(db, preparer, "Harbor Supplies", BeneficiaryTemplate.parse(fields));
    const start = await businessDay();
    const s = await createSeries(
      db,
      preparer,
      {
        id: randomUUID(),
        kind: "wire",
        name: "Harbor supplies",
        fromAccount: from,
        amountCents: 10_000,
        counterparty: fields.beneficiary_name,
        beneficiaryId: payee.id,
        request: { originator_account_number: from, amount: 100, ...fields },
        schedule: {
          startsOn: start,
          pattern: { kind: "weekly", everyWeeks: 1, weekday: "MO" },
          count: null,
          until: null,
          roll: "following",
        },
      },
      start,
    );
    await approveSeries(db, approver, s.id, 1);
    // Every day of a week: the Monday occurrence meets the payee's change still waiting.
    let day = start;
    const runWeek = async () => {
      const n = (await seriesHistory(db, s.id)).length;
      for (let i = 0; i < 8 && (await seriesHistory(db, s.id)).length === n; i++) {
        await runSchedules(db, await bank(), { today: day });
        day = (
          await sandbox<{ businessDate: string }>(world.bank, "POST", "/sandbox/clock", {
            advanceSeconds: 86_400,
          })
        ).businessDate;
      }
      return (await seriesHistory(db, s.id))[0];
    };
    const first = await runWeek();
    expect(first.status).toBe("failed");
    expect(first.reason).toContain("waits for approval");
    expect(first.reason).toContain("Harbor Supplies");

    // The change is approved; a policy asks two approvers of a wire to a payee changed within 30 days.
    await decideBeneficiaryChange(db, approver2, payee.id, payee.pendingChange?.id as string, "approve");
    const set = await policySetNow(db);
    await writePolicySet(
      db,
      {
        ...set,
        policies: [
          ...set.policies,
          {
            id: "recent-payee",
            name: "Wires to a new payee",
            when: { rails: ["wire"], payeeNewWithinDays: 30 },
            approvers: 2,
          },
        ],
      },
      { from: set, by: approver2, detail: {} },
    );
    const second = await runWeek();
    expect(second.status).toBe("failed");
    expect(second.reason).toBe("it needs 2 approvals and has 1");

    await approveSeries(db, approver2, s.id, 1);
    const third = await runWeek();
    expect(third.status, third.reason ?? "").toBe("sent");
    return s.id;
  }

  it("puts each occurrence that did not go in the inbox of its preparer and approvers, and no one else's", async () => {
    const seriesId = await harborSeries();
    const inbox = () => import("../../app/api/inbox/route.ts");
    // The preparers' inboxes through the route; the approvers' (whose inbox also reads the bank's
    // incoming-wire queue, which this test's clock has run past) as the route reads their notices.
    const noticesOf = async (who: UserRow) => {
      if (who.role === "approver")
        return (await scheduleNoticesFor(db, { id: who.id, role: "approver" })).filter(
          (n) => n.seriesId === seriesId,
        );
      const r = await invoke(inbox, "GET", "/api/inbox", { as: who });
      expect(r.status, r.text).toBe(200);
      return (r.json.notices as { seriesId: string; reason: string; name: string }[]).filter(
        (n) => n.seriesId === seriesId,
      );
    };
    const [prep, appr, appr2, other] = users;
    for (const who of [prep, appr, appr2]) {
      const notices = await noticesOf(who);
      expect(notices.map((n) => n.reason)).toEqual([
        "it needs 2 approvals and has 1",
        expect.stringContaining("waits for approval"),
      ]);
      expect(notices[0].name).toBe("Harbor supplies");
    }
    expect(await noticesOf(other)).toEqual([]);
    const count = await invoke(inbox, "GET", "/api/inbox?view=count", { as: prep });
    expect(count.json.notices).toBeUndefined();
  });
});
