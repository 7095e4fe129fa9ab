// The sweep routes, invoked as Next invokes them against the real bank: a preparer's sweep (one per
// form key), a bad band or a foreign account answered 400 naming its field, the preparer refused
// approval of their own sweep, an approver's approval, pause, resume and delete, each audited.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAudit } from "../../lib/audit/log.ts";
import { type UserRow, updateUser } from "../../lib/auth/users.ts";
import { rollToBusinessDay } from "../../lib/bank-api/business-days.ts";
import { getBankClient } from "../../lib/bank-client/index.ts";
import { lookForShortfalls, mailShortfalls, shortfallKey } from "../../lib/schedules/shortfall-mail.ts";
import { sandbox } from "../helpers/bank.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser, wireForm } from "../helpers/routes.ts";

let world: RouteWorld;
let preparer: UserRow;
let approver: UserRow;
let viewer: UserRow;
let kept: string;
let funding: string;

const mod = {
  list: () => import("../../app/api/schedules/sweeps/route.ts"),
  one: () => import("../../app/api/schedules/sweeps/[sweepId]/route.ts"),
  approve: () => import("../../app/api/schedules/sweeps/[sweepId]/approve/route.ts"),
  status: () => import("../../app/api/schedules/sweeps/[sweepId]/status/route.ts"),
  ahead: () => import("../../app/api/accounts/[accountNumber]/ahead/route.ts"),
  shortfalls: () => import("../../app/api/inbox/shortfalls/route.ts"),
  alert: () => import("../../app/api/alerts/[accountNumber]/route.ts"),
  schedules: () => import("../../app/api/schedules/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
};

interface AheadFlowJson {
  key: string;
  kind: string;
  likelihood: string;
  amountCents: number;
  label: string;
}
interface AheadDayJson {
  day: string;
  byKind: Record<string, number>;
  flows: AheadFlowJson[];
  projectedCents: number;
}

beforeAll(async () => {
  world = await openRouteWorld("sweeps-routes", { customer: "Sweeps Routes Inc" });
  preparer = await testUser(world.db, "preparer", "prep@sweep-routes.example");
  approver = await testUser(world.db, "approver", "appr@sweep-routes.example");
  viewer = await testUser(world.db, "viewer", "view@sweep-routes.example");
  kept = await world.customer.account("SEN", 1_000);
  funding = await world.customer.account("SEN", 100_000);
}, 300_000);
afterAll(async () => {
  await world?.close();
});

const form = (over: Record<string, unknown> = {}) => ({
  idempotencyKey: randomUUID(),
  name: "Operating band",
  account: kept,
  fundingAccount: funding,
  lowCents: 500_000,
  highCents: 2_000_000,
  runAt: "09:30",
  ...over,
});

describe("the sweep routes", () => {
  it("creates a sweep once per form key, waiting for approval, and lists it", async () => {
    const body = form();
    const made = await invoke(mod.list, "POST", "/api/schedules/sweeps", { as: preparer, body });
    expect(made.status, made.text).toBe(200);
    // A $20,000 top is under the SEN release threshold, yet a sweep is never approved by nobody.
    expect(made.json.sweep).toMatchObject({
      status: "active",
      version: 1,
      approvalsRequired: 1,
      approved: false,
      lastMoves: [],
    });
    const again = await invoke(mod.list, "POST", "/api/schedules/sweeps", { as: preparer, body });
    expect(again.json.sweep.id).toBe(made.json.sweep.id);
    const listed = await invoke(mod.list, "GET", "/api/schedules/sweeps", { as: viewer });
    expect(listed.status).toBe(200);
    expect(listed.json.sweeps.filter((s: { id: string }) => s.id === made.json.sweep.id)).toHaveLength(1);
  });

  it("answers a bad band, a bad time or another customer's account with 400 naming the field", async () => {
    for (const [over, field] of [
      [{ highCents: 1 }, "highCents"],
      [{ lowCents: -5 }, "lowCents"],
      [{ runAt: "25:00" }, "runAt"],
      [{ fundingAccount: kept }, "fundingAccount"],
      [{ account: "999999999" }, "account"],
    ] as const) {
      const r = await invoke(mod.list, "POST", "/api/schedules/sweeps", { as: preparer, body: form(over) });
      expect(r.status, `${JSON.stringify(over)} ${r.text}`).toBe(400);
      expect(r.json.error.fields.map((e: { field: string }) => e.field)).toContain(field);
    }
    const viewerTry = await invoke(mod.list, "POST", "/api/schedules/sweeps", { as: viewer, body: form() });
    expect(viewerTry.status).toBe(403);
  });

  it("is approved by another approver, paused, resumed and deleted, each step audited", async () => {
    const made = await invoke(mod.list, "POST", "/api/schedules/sweeps", { as: preparer, body: form() });
    const id = made.json.sweep.id as string;
    const params = { sweepId: id };
    const own = await invoke(mod.approve, "POST", `/api/schedules/sweeps/${id}/approve`, {
      as: preparer,
      params,
      body: { version: 1 },
    });
    expect(own.status).toBe(403);
    const ok = await invoke(mod.approve, "POST", `/api/schedules/sweeps/${id}/approve`, {
      as: approver,
      params,
      body: { version: 1 },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.sweep.approved).toBe(true);
    const wider = await invoke(mod.one, "PUT", `/api/schedules/sweeps/${id}`, {
      as: preparer,
      params,
      body: { ...form({ highCents: 3_000_000 }), idempotencyKey: undefined, version: 1 },
    });
    expect(wider.status, wider.text).toBe(200);
    expect(wider.json.sweep).toMatchObject({ version: 2, approved: false });
    const paused = await invoke(mod.status, "POST", `/api/schedules/sweeps/${id}/status`, {
      as: preparer,
      params,
      body: { action: "pause" },
    });
    expect(paused.json.sweep.status).toBe("paused");
    const twice = await invoke(mod.status, "POST", `/api/schedules/sweeps/${id}/status`, {
      as: preparer,
      params,
      body: { action: "pause" },
    });
    expect(twice.status).toBe(409);
    const resumed = await invoke(mod.status, "POST", `/api/schedules/sweeps/${id}/status`, {
      as: preparer,
      params,
      body: { action: "resume" },
    });
    expect(resumed.json.sweep.status).toBe("active");
    const gone = await invoke(mod.one, "DELETE", `/api/schedules/sweeps/${id}`, { as: preparer, params });
    expect(gone.status).toBe(204);
    const listed = await invoke(mod.list, "GET", "/api/schedules/sweeps", { as: viewer });
    expect(listed.json.sweeps.some((s: { id: string }) => s.id === id)).toBe(false);
    const audit = (await readAudit(world.db, 500))
      .filter((a) => a.target === id)
      .map((a) => `${a.action} ${a.result}`);
    expect(audit).toEqual(
      expect.arrayContaining([
        "sweep.create ok",
        "sweep.approve approved",
        "sweep.edit ok",
        "sweep.pause ok",
        "sweep.pause stale",
        "sweep.resume ok",
        "sweep.delete ok",
      ]),
    );
  });

  it("needs the approvers its policy names for its band's top, each counted as the run counts them", async () => {
    const second = await testUser(world.db, "approver", `appr2-${randomUUID()}@sweep-routes.example`);
    // A top of $1,500,000.00 is over the two-approver limit ($1,000,000.00 by default): two approvers.
    const made = await invoke(mod.list, "POST", "/api/schedules/sweeps", {
      as: preparer,
      body: form({ name: "Large band", lowCents: 50_000_000, highCents: 150_000_000 }),
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json.sweep).toMatchObject({ approvalsRequired: 2, approved: false });
    const id = made.json.sweep.id as string;
    const approve = (as: UserRow) =>
      invoke(mod.approve, "POST", `/api/schedules/sweeps/${id}/approve`, {
        as,
        params: { sweepId: id },
        body: { version: 1 },
      });
    const one = await approve(approver);
    expect(one.status, one.text).toBe(200);
    expect(one.json.sweep).toMatchObject({ approvalsRequired: 2, approved: false });
    const two = await approve(second);
    expect(two.status, two.text).toBe(200);
    expect(two.json.sweep).toMatchObject({ approvalsRequired: 2, approved: true });
    expect(
      (await readAudit(world.db, 500))
        .filter((a) => a.target === id && a.action === "sweep.approve")
        .map((a) => a.result)
        .sort(),
    ).toEqual(["approved", "awaiting_second_approval"]);
    // A disabled approver's approval no longer counts: the sweep waits again, as its run would.
    await updateUser(world.db, second.id, { disabled: true });
    const listed = await invoke(mod.list, "GET", "/api/schedules/sweeps", { as: viewer });
    expect(listed.json.sweeps.find((s: { id: string }) => s.id === id)).toMatchObject({
      approvalsRequired: 2,
      approved: false,
    });
  });

  it("projects an account's balance ahead: a scheduled payment and an approved sweep, each apart", async () => {
    const own = await world.customer.account("SEN", 1_000);
    const reserve = await world.customer.account("SEN", 50_000);
    const payee = await world.customer.account("SEN", 0);
    const series = await invoke(mod.schedules, "POST", "/api/schedules", {
      as: preparer,
      body: {
        kind: "sen",
        name: "Ahead rent",
        schedule: {
          startsOn: "2020-01-01",
          pattern: { kind: "weekly", everyWeeks: 1, weekday: "WE" },
          count: null,
          until: null,
          roll: "following",
        },
        transfer: {
          idempotencyKey: randomUUID(),
          AccountNumberFrom: own,
          AccountNumberTo: payee,
          Amount: "400.00",
        },
      },
    });
    expect(series.status, series.text).toBe(200);
    const made = await invoke(mod.list, "POST", "/api/schedules/sweeps", {
      as: preparer,
      body: form({ account: own, fundingAccount: reserve, lowCents: 80_000, highCents: 150_000 }),
    });
    await invoke(mod.approve, "POST", "/api/schedules/sweeps/x/approve", {
      as: approver,
      params: { sweepId: made.json.sweep.id },
      body: { version: 1 },
    });
    const r = await invoke(mod.ahead, "GET", `/api/accounts/${own}/ahead`, {
      as: viewer,
      params: { accountNumber: own },
    });
    expect(r.status, r.text).toBe(200);
    const days = r.json.days as { day: string; byKind: Record<string, number>; projectedCents: number }[];
    expect(days).toHaveLength(30);
    expect(r.json.availableCents).toBe(100_000);
    const rent = days.filter((d) => d.byKind.scheduled === -40_000);
    expect(rent.length).toBeGreaterThanOrEqual(5);
    // $1,000 less $400 is under the band's $800 low: the sweep tops it up the same day, apart.
    expect(rent[0].byKind.sweep).toBe(20_000);
    expect(rent[0].projectedCents).toBe(80_000);
    // Both are sure to come: each is said to be scheduled.
    expect(
      (rent[0] as unknown as AheadDayJson).flows.map((f) => [f.kind, f.amountCents, f.likelihood]),
    ).toEqual([
      ["scheduled", -40_000, "scheduled"],
      ["sweep", 20_000, "scheduled"],
    ]);
    for (const d of days) expect(d.projectedCents).toBeGreaterThanOrEqual(80_000);

    // The funding account sees the same moves going out, on the same days.
    const funds = await invoke(mod.ahead, "GET", `/api/accounts/${reserve}/ahead`, {
      as: viewer,
      params: { accountNumber: reserve },
    });
    expect(funds.status, funds.text).toBe(200);
    const out = funds.json.days as { day: string; byKind: Record<string, number> }[];
    for (const [i, d] of days.entries()) expect(out[i].byKind.sweep + d.byKind.sweep).toBe(0);
    expect(out.find((d) => d.day === rent[0].day)?.byKind.sweep).toBe(-20_000);
  });
  it("projects a wire draft waiting for release and an incoming wire waiting for a decision on today, each apart with its likelihood", async () => {
    const dda = await world.customer.account("DDA", 5_000);
    const draft = await invoke(mod.wires, "POST", "/api/wires", { as: preparer, body: wireForm(dda) });
    expect(draft.status, draft.text).toBe(200);
    const draftId = draft.json.draft.id as string;
    const originator = `AHEAD ORIGINATOR ${Date.now().toString(36).toUpperCase()}`.slice(0, 35);
    const wire = await sandbox<{ payment_id: string }>(world.bank, "POST", "/sandbox/incoming-wires", {
      accountNumber: dda,
      amount: 300.25,
      originatorName: originator,
      originatorToBeneficiaryInfo: "INVOICE AHEAD",
    });
    const r = await invoke(mod.ahead, "GET", `/api/accounts/${dda}/ahead`, {
      as: viewer,
      params: { accountNumber: dda },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.notes).toEqual([]);
    const days = r.json.days as AheadDayJson[];
    // Both go as soon as someone decides: they land on the first day of the line, the bank's
    // business day (the next one when today is a weekend or a holiday).
    expect(days[0].day).toBe(rollToBusinessDay(r.json.today, "following"));
    expect(days[0].flows).toEqual([
      {
        key: `draft:${draftId}`,
        kind: "draft",
        likelihood: "waiting for approval",
        amountCents: -125_050,
        label: "Wire to Acme Supplies Inc",
      },
      {
        key: `wire:${wire.payment_id}`,
        kind: "incoming_wire",
        likelihood: "not yet accepted",
        amountCents: 30_025,
        label: `Wire from ${originator}`,
      },
    ]);
    expect(days[0].byKind).toEqual({ scheduled: 0, sweep: 0, draft: -125_050, incoming_wire: 30_025 });
    const start = r.json.availableCents as number;
    expect(start).toBe(500_000);
    expect(days[0].projectedCents).toBe(start - 125_050 + 30_025);
    // No later day has a payment of its own; the line stays where today left it.
    for (const d of days.slice(1)) {
      expect(d.flows).toEqual([]);
      expect(d.projectedCents).toBe(days[0].projectedCents);
    }
  });

  it("says which accounts fall short ahead, below zero or below their alert line, and the payments behind it", async () => {
    const short = await world.customer.account("SEN", 1_000);
    const payee = await world.customer.account("SEN", 0);
    const monthly = (name: string, amount: string, day: number) =>
      invoke(mod.schedules, "POST", "/api/schedules", {
        as: preparer,
        body: {
          kind: "sen",
          name,
          schedule: {
            startsOn: "2020-01-01",
            pattern: { kind: "monthly-day", day },
            count: null,
            until: null,
            roll: "following",
          },
          transfer: {
            idempotencyKey: randomUUID(),
            AccountNumberFrom: short,
            AccountNumberTo: payee,
            Amount: amount,
          },
        },
      });
    // Two monthly payments from $1,000: $300 and $900. Within 30 business days both fall due, so
    // the balance goes below zero on the day the second one is due (or on the first's, if later).
    for (const [name, amount, day] of [
      ["Short rent", "300.00", 3],
      ["Short tax", "900.00", 17],
    ] as const) {
      const r = await monthly(name, amount, day);
      expect(r.status, r.text).toBe(200);
    }
    const ahead = await invoke(mod.ahead, "GET", `/api/accounts/${short}/ahead`, {
      as: viewer,
      params: { accountNumber: short },
    });
    expect(ahead.status, ahead.text).toBe(200);
    const days = ahead.json.days as { day: string; projectedCents: number }[];
    const below = days.find((d) => d.projectedCents < 0) as { day: string; projectedCents: number };
    expect(below.projectedCents).toBe(-20_000);
    expect(ahead.json.alertBelowCents).toBeNull();
    expect(ahead.json.shortfall).toMatchObject({ day: below.day, projectedCents: -20_000, line: "zero" });
    expect(ahead.json.shortfall.causes.map((c: { label: string }) => c.label)).toEqual([
      "Short tax",
      "Short rent",
    ]);

    const listed = async () => {
      const r = await invoke(mod.shortfalls, "GET", "/api/inbox/shortfalls", { as: viewer });
      expect(r.status, r.text).toBe(200);
      return (r.json.shortfalls as { accountNumber: string; day: string; line: string }[]).find(
        (x) => x.accountNumber === short,
      );
    };
    expect(await listed()).toMatchObject({ day: below.day, line: "zero" });

    // A low alert line of $800: the first payment alone crosses it, no later than zero.
    const rule = await invoke(mod.alert, "PUT", `/api/alerts/${short}`, {
      as: preparer,
      params: { accountNumber: short },
      body: { below: "800.00", above: "", notifyUsers: true, emails: "" },
    });
    expect(rule.status, rule.text).toBe(200);
    const first = days.find((d) => d.projectedCents < 80_000) as { day: string; projectedCents: number };
    expect(first.day <= below.day).toBe(true);
    expect(await listed()).toMatchObject({
      day: first.day,
      line: first.projectedCents < 0 ? "zero" : "alert",
      projectedCents: first.projectedCents,
    });
    // An account whose balance ahead stays above both is not listed.
    expect(
      await invoke(mod.shortfalls, "GET", "/api/inbox/shortfalls", { as: viewer }).then((r) =>
        r.json.shortfalls.map((x: { accountNumber: string }) => x.accountNumber),
      ),
    ).not.toContain(payee);

    // The shortfall is e-mailed once to everyone who may move or approve money, whichever of two
    // looks at once names it first; a look with nothing changed does not read the bank again.
    const bank = await getBankClient();
    const looks = await Promise.all([mailShortfalls(world.db, bank), mailShortfalls(world.db, bank)]);
    const key = shortfallKey(short, first.day, first.projectedCents < 0 ? "zero" : "alert");
    expect(looks.flatMap((l) => l.told).filter((k) => k === key)).toEqual([key]);
    const mails = await world.db.query<{ to: string; subject: string; text: string }>(
      "SELECT \"to\", subject, text FROM mail_outbox WHERE kind = 'balance_ahead.shortfall' AND subject LIKE $1",
      [`%${short.slice(-4)}%`],
    );
    expect(mails.map((m) => m.to).sort()).toEqual([approver.email, preparer.email].sort());
    expect(mails[0].subject).toMatch(/^Balance ahead: .+ falls below (zero|its alert line) on /);
    expect(mails[0].text).toContain("Short rent");
    expect((await mailShortfalls(world.db, bank)).told).not.toContain(key);
    expect(await lookForShortfalls(world.db, bank)).not.toBeNull();
    expect(await lookForShortfalls(world.db, bank)).toBeNull();
  });
});
