// Sweeps against the real bank: the day's run brings the kept account into its band (topped up
// from the funding account below it, the excess sent back above it), never moves more than the
// other account has available, moves once per slot however many runs meet it, moves nothing until
// approved (again after a wider band), runs on a balance crossing once per notification, and shows
// each move in the bank's history under the sweep's name, and finishes a move whose answer was lost after
// the bank took it (a run killed mid-send) once, under its own key, after the lease.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "../../lib/audit/log.ts";
import { readAudit } from "../../lib/audit/log.ts";
import { isBusinessDay } from "../../lib/bank-api/business-days.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { BankClient } from "../../lib/bank-client/client.ts";
import { getBankClient, TokenManager } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { bankBusinessDate } from "../../lib/schedules/engine.ts";
import { runSweeps, runSweepsOnCrossing, sweepMoveKey } from "../../lib/schedules/sweep-engine.ts";
import {
  approveSweep,
  createSweep,
  editSweep,
  getSweep,
  type SweepTerms,
  setSweepStatus,
} from "../../lib/schedules/sweeps.ts";
import { sandbox } from "../helpers/bank.ts";
import { openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

const ZONE = "America/New_York";
let world: RouteWorld;
let db: DashboardDb;
let preparer: Actor;
let approver: Actor;
let day: string;

const bank = () => getBankClient();

beforeAll(async () => {
  world = await openRouteWorld("sweeps", {
    customer: "Sweeps Inc",
    bankEnv: { BANK_TOKEN_INTERVAL_SECONDS: "0", BANK_SETTLE_AFTER_SECONDS: "3600" },
  });
  db = world.db;
  const p = await testUser(db, "preparer", "prep@sweeps.example", "Prep");
  const a = await testUser(db, "approver", "appr@sweeps.example", "Appr");
  preparer = { id: p.id, email: p.email };
  approver = { id: a.id, email: a.email };
  day = (await bankBusinessDate(await bank(), ZONE)) as string;
  while (!isBusinessDay(day)) day = await nextDay();
}, 300_000);
afterAll(async () => {
  await world?.close();
});

async function nextDay(): Promise<string> {
  return (
    await sandbox<{ businessDate: string }>(world.bank, "POST", "/sandbox/clock", { advanceSeconds: 86_400 })
  ).businessDate;
}
async function nextBusinessDay(): Promise<string> {
  let d = await nextDay();
  while (!isBusinessDay(d)) d = await nextDay();
  return d;
}

async function availableCents(account: string): Promise<number> {
  let r = await (await bank()).call("balance", { query: { accountNumber: account } });
  // A token issued before the last clock move is refused once more; the next call renews it.
  for (let i = 0; !r.ok && r.error.status === 401 && i < 3; i++)
    r = await (await bank()).call("balance", { query: { accountNumber: account } });
  if (!r.ok) throw new Error(r.error.message);
  return Number(dollarsToCents(r.data.ResponseData[0].AVAILBAL));
}

/** Every debit of the account on `d`, with its key and its description lines. */
async function debits(account: string, d: string) {
  const r = await (await bank()).call("history", {
    query: { accountNumber: account, beginDate: d, endDate: d },
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.data.ResponseData.flatMap((x) => x.TRANSACTION).filter((t) => t.DRCRFLAG === "D");
}

async function accounts(keptDollars: number, fundingDollars: number) {
  const kept = await world.customer.account("SEN", keptDollars);
  const funding = await world.customer.account("SEN", fundingDollars);
  return { kept, funding, own: new Set([kept, funding]) };
}

const terms = (
  kept: string,
  funding: string,
  low: number,
  high: number,
  name = "Operating band",
): SweepTerms => ({
  name,
  account: kept,
  fundingAccount: funding,
  lowCents: low * 100,
  highCents: high * 100,
  runAt: "09:00",
});

async function approvedSweep(t: SweepTerms, own: Set<string>) {
  const s = await createSweep(db, preparer, randomUUID(), t, own);
  expect(s).toMatchObject({ approvalsRequired: 1, approved: false, version: 1 });
  return approveSweep(db, approver, s.id, 1);
}

describe("a sweep", () => {
  it("tops the account up to its band's low at the day's run, and sends the excess back above its high", async () => {
    const { kept, funding, own } = await accounts(100, 10_000);
    const s = await approvedSweep(terms(kept, funding, 500, 2_000), own);
    // Before its time nothing runs.
    expect((await runSweeps(db, await bank(), { today: day, time: "08:59" })).moved).toBe(0);
    expect(await availableCents(kept)).toBe(10_000);
    expect((await runSweeps(db, await bank(), { today: day, time: "09:00" })).moved).toBe(1);
    expect(await availableCents(kept)).toBe(50_000);
    expect(await availableCents(funding)).toBe(960_000);
    const [d] = await debits(funding, day);
    expect(d.IDEMPOTENCYKEY).toBe(sweepMoveKey(s.id, day, "run"));
    expect(d.TRANDESCS).toBe("Sweep Operating band");

    // The next business day the account holds more than the band's top: the excess goes back.
    day = await nextBusinessDay();
    const payer = await world.customer.account("SEN", 5_000);
    const topUp = await (await bank()).call("transferSen", {
      body: { AccountNumberFrom: payer, AccountNumberTo: kept, Amount: 4_000 } as never,
      idempotencyKey: randomUUID(),
    });
    expect(topUp.ok).toBe(true);
    expect((await runSweeps(db, await bank(), { today: day, time: "10:00" })).moved).toBe(1);
    expect(await availableCents(kept)).toBe(200_000);
    expect(await availableCents(funding)).toBe(960_000 + 250_000);
    const view = await getSweep(db, s.id);
    expect(view?.lastMoves.map((m) => [m.direction, m.amountCents, m.status])).toEqual([
      ["sweep", 250_000, "sent"],
      ["fund", 40_000, "sent"],
    ]);
    const audit = await readAudit(db, 500);
    const moves = audit.filter(
      (a) => a.action === "sweep.move" && (a.detail as { sweepId?: string } | null)?.sweepId === s.id,
    );
    expect(moves.map((a) => a.result)).toEqual(["sent", "sent"]);
  });

  it("never overdraws the funding account: it moves what is available, then nothing", async () => {
    const { kept, funding, own } = await accounts(0, 200);
    const s = await approvedSweep(terms(kept, funding, 500, 1_000, "Thin reserve"), own);
    await runSweeps(db, await bank(), { today: day, time: "23:59" });
    expect(await availableCents(kept)).toBe(20_000);
    expect(await availableCents(funding)).toBe(0);
    const after = await getSweep(db, s.id);
    expect(after?.lastMoves[0]).toMatchObject({ status: "sent", amountCents: 20_000 });
    expect(after?.lastMoves[0].reason).toContain("had only $200.00");
    // A crossing with nothing left to fund it moves nothing and says so.
    const out = await runSweepsOnCrossing(db, await bank(), {
      accountNumber: kept,
      availableCents: 10_000,
      previousCents: 60_000,
      crossingId: randomUUID(),
      today: day,
    });
    expect(out.short).toBe(1);
    expect(await availableCents(funding)).toBe(0);
  });

  it("moves once when several runs meet the same slot at once, and again only on the next day", async () => {
    const { kept, funding, own } = await accounts(0, 10_000);
    const s = await approvedSweep(terms(kept, funding, 1_000, 1_000, "Target"), own);
    const runs = await Promise.all(
      Array.from({ length: 4 }, async () => runSweeps(db, await bank(), { today: day, time: "12:00" })),
    );
    expect(runs.reduce((n, r) => n + r.moved, 0)).toBe(1);
    await runSweeps(db, await bank(), { today: day, time: "15:00" });
    expect(await availableCents(kept)).toBe(100_000);
    expect(await debits(funding, day)).toHaveLength(1);
    const [d] = await debits(funding, day);
    expect(d.IDEMPOTENCYKEY).toBe(sweepMoveKey(s.id, day, "run"));
  });

  it("moves once for one dip when the day's run and the crossing's slot meet it at once", async () => {
    // Three sweeps at once, each met by its day's run and its crossing together: before, both slots
    // read the same balances and both moved (the second overfunded the account, or, with too little
    // left in the funding account, was refused by the bank).
    const made = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const { kept, funding, own } = await accounts(0, 10_000);
        await approvedSweep({ ...terms(kept, funding, 1_000, 1_500, `Dip ${n}`), runAt: "00:00" }, own);
        return { kept, funding };
      }),
    );
    const outs = await Promise.all(
      made.flatMap(({ kept }) => [
        (async () => runSweeps(db, await bank(), { today: day, time: "00:00" }))(),
        (async () =>
          runSweepsOnCrossing(db, await bank(), {
            accountNumber: kept,
            availableCents: 0,
            previousCents: 120_000,
            crossingId: randomUUID(),
            today: day,
          }))(),
      ]),
    );
    expect(outs.reduce((n, r) => n + r.failed, 0)).toBe(0);
    for (const { kept, funding } of made) {
      expect(await availableCents(kept), kept).toBe(100_000);
      expect(await debits(funding, day)).toHaveLength(1);
    }
  });

  it("finishes a move whose answer was lost after the bank took it, once, by the next run after the lease", async () => {
    const { kept, funding, own } = await accounts(0, 10_000);
    const s = await approvedSweep(terms(kept, funding, 700, 700, "Lost answer"), own);
    // A proxy in front of the bank that lets a SEN transfer through and cuts the connection
    // before its answer reaches the run: what a run killed mid-send, or a dropped link, leaves.
    const target = new URL(world.bank.url);
    let cut = 0;
    const proxy = http.createServer((req, res) => {
      const upstream = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          if (req.url?.includes("/transfersen")) {
            cut++;
            answer.resume();
            answer.on("end", () => res.socket?.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as AddressInfo).port;
    const customer = world.customer.subscriptionKey;
    const cutOff = new BankClient({
      bankUrl: `http://127.0.0.1:${port}`,
      subscriptionKey: customer,
      tokens: new TokenManager({ db, bankUrl: `http://127.0.0.1:${port}`, subscriptionKey: customer }),
    });
    try {
      const first = await runSweeps(db, cutOff, { today: day, time: "12:00" });
      expect(cut).toBeGreaterThan(0);
      expect(first.moved).toBe(0);
      // The bank took it; the dashboard does not know.
      expect(await availableCents(kept)).toBe(70_000);
      const [m] = await db.query<{ status: string }>("SELECT status FROM sweep_moves WHERE sweep_id = $1", [
        s.id,
      ]);
      expect(m.status).toBe("sending");
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
    // A run inside the lease leaves the claimed move alone and plans no second one.
    await runSweeps(db, await bank(), { today: day, time: "13:00", leaseSeconds: 3600 });
    expect(await debits(funding, day)).toHaveLength(1);
    // After the lease the same request goes again under the same key: the bank answers with the
    // transfer it made, and the move is written down as sent. One debit in all.
    const after = await runSweeps(db, await bank(), { today: day, time: "13:00", leaseSeconds: 0 });
    expect(after.moved).toBe(1);
    const moved = await debits(funding, day);
    expect(moved).toHaveLength(1);
    expect(moved[0].IDEMPOTENCYKEY).toBe(sweepMoveKey(s.id, day, "run"));
    expect(await availableCents(kept)).toBe(70_000);
    expect(await availableCents(funding)).toBe(1_000_000 - 70_000);
    expect((await getSweep(db, s.id))?.lastMoves[0]).toMatchObject({ status: "sent", amountCents: 70_000 });
  });

  it("moves nothing until approved, and again after a wider band until that is approved", async () => {
    const { kept, funding, own } = await accounts(0, 10_000);
    const s = await createSweep(
      db,
      preparer,
      randomUUID(),
      terms(kept, funding, 100, 200, "Unapproved"),
      own,
    );
    await expect(approveSweep(db, preparer, s.id, 1)).rejects.toMatchObject({ status: 403 });
    expect(
      (await runSweeps(db, await bank(), { today: day, time: "23:00" })).unapproved,
    ).toBeGreaterThanOrEqual(1);
    expect(await availableCents(kept)).toBe(0);
    await approveSweep(db, approver, s.id, 1);
    // Narrower: the approval stands. Wider: a new version that waits.
    const narrower = await editSweep(
      db,
      preparer,
      s.id,
      1,
      terms(kept, funding, 150, 200, "Unapproved"),
      own,
    );
    expect(narrower).toMatchObject({ version: 1, approved: true });
    const wider = await editSweep(db, preparer, s.id, 1, terms(kept, funding, 150, 900, "Unapproved"), own);
    expect(wider).toMatchObject({ version: 2, approved: false });
    await runSweeps(db, await bank(), { today: day, time: "23:00" });
    expect(await availableCents(kept)).toBe(0);
    await approveSweep(db, approver, s.id, 2);
    await runSweeps(db, await bank(), { today: day, time: "23:00" });
    expect(await availableCents(kept)).toBe(15_000);
    // Paused, a crossing moves nothing; deleted, it is gone from the list and moves nothing.
    await setSweepStatus(db, preparer, s.id, "pause");
    const paused = await runSweepsOnCrossing(db, await bank(), {
      accountNumber: kept,
      availableCents: 0,
      previousCents: 15_000,
      crossingId: randomUUID(),
      today: day,
    });
    expect(paused.moved).toBe(0);
    await setSweepStatus(db, preparer, s.id, "delete");
    await expect(setSweepStatus(db, preparer, s.id, "resume")).rejects.toMatchObject({ status: 404 });
  });

  it("runs on a balance crossing once per notification, and not for a move inside the band", async () => {
    const { kept, funding, own } = await accounts(1_000, 10_000);
    const s = await approvedSweep(terms(kept, funding, 500, 2_000, "Crossing"), own);
    const inside = await runSweepsOnCrossing(db, await bank(), {
      accountNumber: kept,
      availableCents: 90_000,
      previousCents: 100_000,
      crossingId: randomUUID(),
      today: day,
    });
    expect(inside).toMatchObject({ moved: 0, inside: 0 });
    // The account drops below the band (a payment out), and the bank tells us twice.
    const payee = await world.customer.account("SEN", 0);
    const out = await (await bank()).call("transferSen", {
      body: { AccountNumberFrom: kept, AccountNumberTo: payee, Amount: 800 } as never,
      idempotencyKey: randomUUID(),
    });
    expect(out.ok).toBe(true);
    const crossing = {
      accountNumber: kept,
      availableCents: 20_000,
      previousCents: 100_000,
      crossingId: randomUUID(),
      today: day,
    };
    const [a, b] = await Promise.all([
      runSweepsOnCrossing(db, await bank(), crossing),
      runSweepsOnCrossing(db, await bank(), crossing),
    ]);
    expect(a.moved + b.moved).toBe(1);
    expect((await runSweepsOnCrossing(db, await bank(), crossing)).taken).toBe(1);
    expect(await availableCents(kept)).toBe(50_000);
    expect((await debits(funding, day)).map((d) => d.IDEMPOTENCYKEY)).toEqual([
      sweepMoveKey(s.id, day, `crossing:${crossing.crossingId}`),
    ]);
  });

  it("holds a target (low equal to high) to the cent: the run and each crossing move exactly to it, once per crossing", async () => {
    const { kept, funding, own } = await accounts(0, 10_000);
    const s = await approvedSweep(terms(kept, funding, 1_000, 1_000, "Exact target"), own);
    expect((await runSweeps(db, await bank(), { today: day, time: "09:00" })).moved).toBe(1);
    expect(await availableCents(kept)).toBe(100_000);
    // At the target the account is inside: the same day's run again finds its slot taken.
    expect((await runSweeps(db, await bank(), { today: day, time: "18:00" })).moved).toBe(0);

    // A payment of $300.01 out: the account falls below the target, and the move brings back that much.
    const payee = await world.customer.account("SEN", 0);
    const out = await (await bank()).call("transferSen", {
      body: { AccountNumberFrom: kept, AccountNumberTo: payee, Amount: 300.01 } as never,
      idempotencyKey: randomUUID(),
    });
    expect(out.ok).toBe(true);
    const below = {
      accountNumber: kept,
      availableCents: 69_999,
      previousCents: 100_000,
      crossingId: randomUUID(),
      today: day,
    };
    // The bank tells it twice, and tells of a further fall while the account is still below (it
    // left the target once), all at once: one crossing, one move, of exactly what is missing.
    const stillBelow = { ...below, availableCents: 60_000, previousCents: 69_999, crossingId: randomUUID() };
    const runs = await Promise.all(
      [below, below, stillBelow].map(async (n) => runSweepsOnCrossing(db, await bank(), n)),
    );
    expect(runs.reduce((n, r) => n + r.moved, 0)).toBe(1);
    expect(await availableCents(kept)).toBe(100_000);
    expect(await runSweepsOnCrossing(db, await bank(), below)).toMatchObject({ moved: 0, taken: 1 });
    // The notification of the move itself is back inside: nothing runs.
    const back = { ...below, availableCents: 100_000, previousCents: 69_999, crossingId: randomUUID() };
    expect((await runSweepsOnCrossing(db, await bank(), back)).moved).toBe(0);
    expect(await availableCents(kept)).toBe(100_000);

    // $50.00 in: the account is above the target, and exactly the excess goes back.
    const payer = await world.customer.account("SEN", 50);
    const topUp = await (await bank()).call("transferSen", {
      body: { AccountNumberFrom: payer, AccountNumberTo: kept, Amount: 50 } as never,
      idempotencyKey: randomUUID(),
    });
    expect(topUp.ok).toBe(true);
    const above = { ...below, availableCents: 105_000, previousCents: 100_000, crossingId: randomUUID() };
    expect(await runSweepsOnCrossing(db, await bank(), above)).toMatchObject({ moved: 1 });
    expect(await availableCents(kept)).toBe(100_000);
    expect(await availableCents(funding)).toBe(1_000_000 - 100_000 - 30_001 + 5_000);
    expect((await getSweep(db, s.id))?.lastMoves.map((m) => [m.slot, m.direction, m.amountCents])).toEqual([
      [`crossing:${above.crossingId}`, "sweep", 5_000],
      [`crossing:${below.crossingId}`, "fund", 30_001],
      ["run", "fund", 100_000],
    ]);
    expect((await debits(funding, day)).map((d) => d.IDEMPOTENCYKEY).sort()).toEqual(
      [sweepMoveKey(s.id, day, "run"), sweepMoveKey(s.id, day, `crossing:${below.crossingId}`)].sort(),
    );
  });
});
