// The schedule run against the real bank, its clock moved through the sandbox: each occurrence paid
// once on its Fed business day however often the run repeats, a run killed after the bank took a
// payment finished by the next without a second payment, approval judged per version, a refused
// occurrence failing alone (people told) while the series goes on, and a wire during an outage
// waiting in the backup log until the replay.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "../../lib/audit/log.ts";
import { readAudit } from "../../lib/audit/log.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { isBusinessDay } from "../../lib/bank-api/business-days.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import { getBankClient } from "../../lib/bank-client/index.ts";
import { nextOccurrence, occurrencesBetween, type Schedule, toRule } from "../../lib/calendar/recurrence.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { bankBusinessDate, runSchedules } from "../../lib/schedules/engine.ts";
import {
  approveSeries,
  createSeries,
  editSeries,
  getSeries,
  occurrenceKey,
  seriesHistory,
  setSeriesStatus,
  skipOccurrence,
} from "../../lib/schedules/series.ts";
import { sandbox } from "../helpers/bank.ts";
import { openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

const ZONE = "America/New_York";
let world: RouteWorld;
let db: DashboardDb;
let preparer: Actor;
let approver: Actor;
let approver2: UserRow;

beforeAll(async () => {
  world = await openRouteWorld("schedules-engine", {
    customer: "Schedules Engine Inc",
    bankEnv: { BANK_TOKEN_INTERVAL_SECONDS: "0", BANK_SETTLE_AFTER_SECONDS: "3600" },
  });
  db = world.db;
  const p = await testUser(db, "preparer", "prep@schedules.example", "Prep");
  const a = await testUser(db, "approver", "appr@schedules.example", "Appr");
  approver2 = await testUser(db, "approver", "appr2@schedules.example", "Appr Two");
  preparer = { id: p.id, email: p.email };
  approver = { id: a.id, email: a.email };
}, 300_000);
afterAll(async () => {
  if (world) await sandbox(world.bank, "POST", "/sandbox/wire-system", { status: "up" }).catch(() => {});
  await world?.close();
});

const bank = () => getBankClient();
const today = async () => {
  const d = await bankBusinessDate(await bank(), ZONE);
  if (!d) throw new Error("no bank date");
  return d;
};
/** Moves the bank's clock on a day and returns its business date. */
const nextDay = async () =>
  (await sandbox<{ businessDate: string }>(world.bank, "POST", "/sandbox/clock", { advanceSeconds: 86_400 }))
    .businessDate;

async function senAccounts(balance: number) {
  return { from: await world.customer.account("SEN", balance), to: await world.customer.account("SEN", 0) };
}

/** Every SEN debit of the account between two days, by its idempotency key. */
async function debitsByKey(account: string, from: string, to: string): Promise<Map<string, string[]>> {
  const read = async () =>
    (await bank()).call("history", { query: { accountNumber: account, beginDate: from, endDate: to } });
  let r = await read();
  // A token issued before the last clock move is refused once more; the next call renews it.
  for (let i = 0; !r.ok && r.error.status === 401 && i < 3; i++) r = await read();
  if (!r.ok) throw new Error(r.error.message);
  const out = new Map<string, string[]>();
  for (const d of r.data.ResponseData)
    for (const t of d.TRANSACTION)
      if (t.IDEMPOTENCYKEY && t.DRCRFLAG === "D")
        out.set(t.IDEMPOTENCYKEY, [...(out.get(t.IDEMPOTENCYKEY) ?? []), t.TRANDATE]);
  return out;
}

const senSeries = (from: string, to: string, dollars: number, schedule: Schedule, name = "Rent") => ({
  id: randomUUID(),
  kind: "sen" as const,
  name,
  fromAccount: from,
  amountCents: Math.round(dollars * 100),
  counterparty: to,
  request: { AccountNumberFrom: from, AccountNumberTo: to, Amount: dollars },
  schedule,
});

describe("the schedule run", () => {
  it("pays each occurrence of a weekly series once over 30 bank days, running three times a day", async () => {
    const { from, to } = await senAccounts(100_000);
    const start = await today();
    const schedule: Schedule = {
      startsOn: start,
      pattern: { kind: "weekly", everyWeeks: 1, weekday: "MO" },
      count: null,
      until: null,
      roll: "following",
    };
    const s = await createSeries(db, preparer, senSeries(from, to, 125.5, schedule, "Weekly top-up"), start);
    let day = start;
    for (let i = 0; i < 30; i++) {
      for (let k = 0; k < 3; k++) await runSchedules(db, await bank(), { today: day });
      day = await nextDay();
    }
    const last = addDays(day, -1);
    const expected = occurrencesBetween(toRule(schedule), "following", start, last);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    const debits = await debitsByKey(from, start, day);
    for (const o of expected) {
      expect(debits.get(occurrenceKey(s.id, o.nominal)), o.nominal).toEqual([o.day]);
      expect(isBusinessDay(o.day)).toBe(true);
    }
    expect([...debits.values()].flat()).toHaveLength(expected.length);
    const history = await seriesHistory(db, s.id);
    expect(history.map((h) => h.status)).toEqual(expected.map(() => "sent"));
  });

  it("finishes a run killed after the bank took the payment without paying twice", async () => {
    const { from, to } = await senAccounts(10_000);
    const start = await today();
    const schedule: Schedule = {
      startsOn: start,
      pattern: { kind: "once" },
      count: null,
      until: null,
      roll: "following",
    };
    const s = await createSeries(db, preparer, senSeries(from, to, 40, schedule, "Killed run"), start);
    const payDay = occurrencesBetween(toRule(schedule), "following", start, addDays(start, 10))[0];
    let day = start;
    while (day < payDay.day) day = await nextDay();
    // A run that claimed the occurrence and sent it, then died before writing the answer down.
    const key = occurrenceKey(s.id, payDay.nominal);
    await runSchedules(db, await bank(), { today: addDays(payDay.day, -1) });
    await db.query(
      `INSERT INTO series_occurrences (series_id, nominal_day, day, key, status, claim_token, claimed_at, attempts, request, version, amount_cents)
       VALUES ($1, $2, $3, $4, 'sending', $5, now() - interval '1 hour', 1, $6, 1, 4000)`,
      [
        s.id,
        payDay.nominal,
        payDay.day,
        key,
        randomUUID(),
        JSON.stringify({ AccountNumberFrom: from, AccountNumberTo: to, Amount: 40 }),
      ],
    );
    const direct = await (await bank()).call("transferSen", {
      body: { AccountNumberFrom: from, AccountNumberTo: to, Amount: 40 } as never,
      idempotencyKey: key,
    });
    expect(direct.ok).toBe(true);
    // A run inside the dead run's lease leaves it; the next after the lease takes it over.
    await runSchedules(db, await bank(), { today: day, leaseSeconds: 7200 });
    expect((await seriesHistory(db, s.id))[0]).toMatchObject({ status: "sending", attempts: 1 });
    await runSchedules(db, await bank(), { today: day, leaseSeconds: 60 });
    const debits = await debitsByKey(from, start, day);
    expect(debits.get(key)).toHaveLength(1);
    expect([...debits.values()].flat()).toHaveLength(1);
    expect((await seriesHistory(db, s.id))[0]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("sends above the release threshold only once approved, and again only after a changed amount is approved", async () => {
    const { from, to } = await senAccounts(2_000_000);
    const start = await today();
    const schedule: Schedule = {
      startsOn: start,
      pattern: { kind: "weekly", everyWeeks: 1, weekday: "WE" },
      count: 6,
      until: null,
      roll: "following",
    };
    // $300,000 is above the default $250,000 release threshold: one approver, not the preparer.
    const s = await createSeries(
      db,
      preparer,
      senSeries(from, to, 300_000, schedule, "Payroll funding"),
      start,
    );
    expect(s).toMatchObject({ approvalsRequired: 1, approved: false });
    await expect(approveSeries(db, preparer, s.id, 1)).rejects.toMatchObject({ status: 403 });
    const occ = occurrencesBetween(toRule(schedule), "following", start, addDays(start, 60));
    let day = start;
    const runUntil = async (until: string) => {
      while (day < until) {
        await runSchedules(db, await bank(), { today: day });
        day = await nextDay();
      }
      await runSchedules(db, await bank(), { today: day });
    };
    await runUntil(occ[0].day);
    let history = await seriesHistory(db, s.id);
    expect(history[0]).toMatchObject({ nominalDay: occ[0].nominal, status: "failed" });
    expect(history[0].reason).toMatch(/needs 1 approval and has 0/);
    const mail = await db.query<{ to: string; subject: string }>(
      `SELECT "to", subject FROM mail_outbox WHERE kind = 'schedule.failed' AND subject LIKE 'Scheduled payment not sent: Payroll funding%'`,
    );
    expect(mail.map((m) => m.to).sort()).toEqual(
      expect.arrayContaining(["appr@schedules.example", "prep@schedules.example"]),
    );

    expect((await approveSeries(db, approver, s.id, 1)).approved).toBe(true);
    await runUntil(occ[1].day);
    history = await seriesHistory(db, s.id);
    expect(history[0]).toMatchObject({ nominalDay: occ[1].nominal, status: "sent", amountCents: 30_000_000 });

    // A new amount is a new version: the approval given to version 1 no longer counts.
    await editSeries(
      db,
      preparer,
      s.id,
      1,
      {
        kind: "sen",
        name: "Payroll funding",
        amountCents: 31_000_000,
        fromAccount: from,
        counterparty: to,
        request: { AccountNumberFrom: from, AccountNumberTo: to, Amount: 310_000 },
        schedule,
      },
      day,
    );
    await runUntil(occ[2].day);
    history = await seriesHistory(db, s.id);
    expect(history[0]).toMatchObject({ nominalDay: occ[2].nominal, status: "failed" });
    await expect(approveSeries(db, approver, s.id, 1)).rejects.toMatchObject({ status: 409 });
    await approveSeries(db, { id: approver2.id, email: approver2.email }, s.id, 2);
    await runUntil(occ[3].day);
    history = await seriesHistory(db, s.id);
    expect(history[0]).toMatchObject({ nominalDay: occ[3].nominal, status: "sent", amountCents: 31_000_000 });
    const debits = await debitsByKey(from, start, day);
    expect([...debits.values()].flat()).toHaveLength(2);
    const audit = await readAudit(db, 500);
    expect(
      audit.some((e) => e.action === "schedule.approve" && e.target === s.id && e.result === "approved"),
    ).toBe(true);
    expect(audit.some((e) => e.action === "schedule.edit" && e.target === s.id)).toBe(true);
  });

  it("fails one occurrence the bank refuses (funds), tells people, and pays the next; skip and pause pay nothing", async () => {
    const { from, to } = await senAccounts(100);
    const start = await today();
    const schedule: Schedule = {
      startsOn: start,
      pattern: { kind: "weekly", everyWeeks: 1, weekday: "TU" },
      count: null,
      until: null,
      roll: "following",
    };
    const s = await createSeries(db, preparer, senSeries(from, to, 150, schedule, "Vendor short"), start);
    const occ = occurrencesBetween(toRule(schedule), "following", start, addDays(start, 60));
    let day = start;
    const runUntil = async (until: string) => {
      while (day < until) {
        await runSchedules(db, await bank(), { today: day });
        day = await nextDay();
      }
      await runSchedules(db, await bank(), { today: day });
    };
    await runUntil(occ[0].day);
    expect((await seriesHistory(db, s.id))[0]).toMatchObject({ status: "failed" });
    expect((await seriesHistory(db, s.id))[0].reason).toMatch(/bank refused/);
    await sandbox(world.bank, "POST", "/sandbox/deposits", { accountNumber: from, amount: 1000 });
    await skipOccurrence(db, preparer, s.id, occ[1].nominal);
    await runUntil(occ[2].day);
    expect((await seriesHistory(db, s.id)).map((h) => h.status)).toEqual(["sent", "skipped", "failed"]);
    await setSeriesStatus(db, preparer, s.id, "pause", day);
    await runUntil(occ[3].day);
    await setSeriesStatus(db, approver, s.id, "resume", addDays(day, 1));
    await runUntil(occ[4].day);
    const statuses = (await seriesHistory(db, s.id)).map((h) => [h.nominalDay, h.status]);
    expect(statuses).toEqual([
      [occ[4].nominal, "sent"],
      [occ[2].nominal, "sent"],
      [occ[1].nominal, "skipped"],
      [occ[0].nominal, "failed"],
    ]);
    const debits = await debitsByKey(from, start, day);
    expect([...debits.values()].flat()).toHaveLength(2);
  });

  it("needs approval again when a wire series' account or routing number changes under the same beneficiary name", async () => {
    const from = await world.customer.account("DDA", 50_000);
    const start = await today();
    const schedule: Schedule = {
      startsOn: addDays(start, 7),
      pattern: { kind: "once" },
      count: null,
      until: null,
      roll: "following",
    };
    const request = {
      originator_account_number: from,
      amount: 900,
      beneficiary_name: "Same Name Supplies",
      beneficiary_account_number: "55001122",
      beneficiary_address1: "3 Quay",
      receiving_bank_routing_id: "021000021",
    };
    const terms = {
      kind: "wire" as const,
      name: "Supplies",
      fromAccount: from,
      amountCents: 90_000,
      counterparty: "Same Name Supplies",
      request,
      schedule,
    };
    const s = await createSeries(db, preparer, { id: randomUUID(), ...terms }, start);
    expect((await approveSeries(db, approver, s.id, 1)).approved).toBe(true);
    // The name alone, or the same request in another key order, keeps the approval.
    const renamed = await editSeries(
      db,
      preparer,
      s.id,
      1,
      {
        ...terms,
        name: "Supplies (monthly)",
        request: Object.fromEntries(Object.entries(request).reverse()),
      },
      start,
    );
    expect(renamed).toMatchObject({ version: 1, approved: true });
    for (const [field, value] of [
      ["beneficiary_account_number", "66001122"],
      ["receiving_bank_routing_id", "026009593"],
    ] as const) {
      const current = (await getSeries(db, s.id))?.version as number;
      const edited = await editSeries(
        db,
        preparer,
        s.id,
        current,
        { ...terms, request: { ...request, [field]: value } },
        start,
      );
      expect(edited, field).toMatchObject({ version: current + 1, approved: false });
      await approveSeries(db, approver, s.id, current + 1);
    }
  });

  it("puts a wire due during an outage in the backup log, and settles it once after the replay", async () => {
    const from = await world.customer.account("DDA", 50_000);
    const start = await today();
    const schedule: Schedule = {
      startsOn: start,
      pattern: { kind: "once" },
      count: null,
      until: null,
      roll: "following",
    };
    const request = {
      originator_account_number: from,
      amount: 1250.5,
      beneficiary_name: "Acme Rent LLC",
      beneficiary_account_number: "99887766",
      beneficiary_address1: "1 Rent Road",
      receiving_bank_routing_id: "021000021",
    };
    const s = await createSeries(
      db,
      preparer,
      {
        id: randomUUID(),
        kind: "wire",
        name: "Office rent",
        fromAccount: from,
        amountCents: 125_050,
        counterparty: "Acme Rent LLC",
        request,
        schedule,
      },
      start,
    );
    await approveSeries(db, approver, s.id, 1);
    const payDay = occurrencesBetween(toRule(schedule), "following", start, addDays(start, 10))[0];
    let day = start;
    while (day < payDay.day) day = await nextDay();
    await sandbox(world.bank, "POST", "/sandbox/wire-system", { status: "down" });
    try {
      await runSchedules(db, await bank(), { today: day });
      expect(await seriesHistory(db, s.id)).toMatchObject([
        { status: "queued", channel: "backup", attempts: 1 },
      ]);
      await runSchedules(db, await bank(), { today: day });
      expect(await seriesHistory(db, s.id)).toMatchObject([{ status: "queued", attempts: 1 }]);
    } finally {
      await sandbox(world.bank, "POST", "/sandbox/wire-system", { status: "up" });
    }
    const key = occurrenceKey(s.id, payDay.nominal);
    let h = (await seriesHistory(db, s.id))[0];
    expect(h).toMatchObject({ status: "queued", channel: "backup" });
    // The bank replays its backup log once the system is up; the next run sees the payment moved on.
    for (let i = 0; i < 100 && h.status === "queued"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await runSchedules(db, await bank(), { today: day });
      h = (await seriesHistory(db, s.id))[0];
    }
    expect(h).toMatchObject({ status: "sent", key });
    const listed = await (await bank()).call("listPayments", {
      query: { account_number: from, begin_date: addDays(start, -1), page_size: 100 },
    });
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.data.filter((p) => p.beneficiary_id === "99887766")).toHaveLength(1);
  });

  it("names the next day to pay after an edit or a resume on a day already paid, not that day", async () => {
    const { from, to } = await senAccounts(10_000);
    let day = await today();
    while (!isBusinessDay(day)) day = await nextDay();
    // A business day is Monday to Friday.
    const weekday = (["MO", "TU", "WE", "TH", "FR"] as const)[new Date(`${day}T00:00:00Z`).getUTCDay() - 1];
    const schedule: Schedule = {
      startsOn: day,
      pattern: { kind: "weekly", everyWeeks: 1, weekday },
      count: null,
      until: null,
      roll: "following",
    };
    const terms = senSeries(from, to, 12.5, schedule, "Paid today");
    const s = await createSeries(db, preparer, terms, day);
    expect(s.nextDay).toBe(day);
    await approveSeries(db, approver, s.id, 1);
    await runSchedules(db, await bank(), { today: day });
    expect((await seriesHistory(db, s.id)).map((h) => `${h.day} ${h.status}`)).toEqual([`${day} sent`]);
    const following = nextOccurrence(toRule(schedule), "following", addDays(day, 1))?.day;
    expect((await getSeries(db, s.id))?.nextDay).toBe(following);
    // Both start again from the bank's today, whose occurrence is already paid.
    const renamed = await editSeries(db, preparer, s.id, 1, { ...terms, name: "Paid today, renamed" }, day);
    expect(renamed.nextDay).toBe(following);
    await setSeriesStatus(db, preparer, s.id, "pause", day);
    const resumed = await setSeriesStatus(db, preparer, s.id, "resume", day);
    expect(resumed.nextDay).toBe(following);
    // A skipped next occurrence is not the next to pay either.
    await skipOccurrence(db, preparer, s.id, following as string);
    const after = nextOccurrence(toRule(schedule), "following", addDays(following as string, 1))?.day;
    expect((await getSeries(db, s.id))?.nextDay).toBe(after);
    // And the day's next run pays nothing more.
    await runSchedules(db, await bank(), { today: day });
    expect((await seriesHistory(db, s.id)).filter((h) => h.status === "sent")).toHaveLength(1);
  });
});
