// The sweep run: at each sweep's time on each business day (the bank's clock), and when a balance
// notification says its account crossed the band, reads both accounts' available balances, plans
// the one move that brings the account back into the band (never more than the other account has
// available), and makes it as a SEN transfer. Each run slot (sweep + business day + `run` or the
// crossing's notification id) is one row, claimed by its insert: two instances reading at once
// both plan, one writes the row and moves, the other sees it taken. The move is sent with
// Idempotency-Key = the slot's key, and a run that died mid-send is finished by the next, which
// resends the stored request under the same key: the bank moves it once.
import { createHash, randomUUID } from "node:crypto";
import "server-only";
import { toCents } from "../accounts/views.ts";
import { appendAudit } from "../audit/log.ts";
import { isBusinessDay } from "../bank-api/business-days.ts";
import { centsToDollars, formatUsd } from "../bank-api/money.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { BankResult } from "../bank-client/errors.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import type { SweepDirection, SweepMoveStatus } from "./states.ts";
import { type SweepMoveRow, type SweepRow, sweepApproval } from "./sweeps.ts";

const SYSTEM = { actorId: "sweep", actorEmail: "sweep", ip: null };
/** The bank keeps 40 characters of a description line. */
const DESCRIPTION_MAX = 40;

/** The slot's Idempotency-Key: a name-based UUID (version 5) of the sweep, the business day and the slot. */
export function sweepMoveKey(sweepId: string, day: string, slot: string): string {
  const ns = Buffer.from(sweepId.replaceAll("-", ""), "hex");
  const h = createHash("sha1").update(ns).update(`${day}/${slot}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export type MovePlan =
  | { status: "inside" }
  | { status: "short"; direction: "fund" }
  | { status: "sending"; direction: SweepDirection; amountCents: number; partial: boolean };

/**
 * The move a band asks for: below it, the funding account tops the account up to the band's low
 * with what it has available (at most); above it, the excess over the band's high goes back.
 */
export function planSweepMove(
  band: { lowCents: number; highCents: number },
  availableCents: number,
  fundingAvailableCents: number,
): MovePlan {
  if (availableCents < band.lowCents) {
    const need = band.lowCents - availableCents;
    const amountCents = Math.min(need, Math.max(0, fundingAvailableCents));
    if (amountCents <= 0) return { status: "short", direction: "fund" };
    return { status: "sending", direction: "fund", amountCents, partial: amountCents < need };
  }
  if (availableCents > band.highCents)
    return {
      status: "sending",
      direction: "sweep",
      amountCents: availableCents - band.highCents,
      partial: false,
    };
  return { status: "inside" };
}

/** Whether a balance move from `previous` to `available` crossed out of the band (a new crossing). */
export function crossesBand(
  band: { lowCents: number; highCents: number },
  previous: number,
  available: number,
) {
  const side = (c: number) => (c < band.lowCents ? "below" : c > band.highCents ? "above" : "inside");
  const now = side(available);
  return now !== "inside" && now !== side(previous);
}

async function available(bank: BankClient, accountNumber: string): Promise<number | null> {
  const r = await bank.call("balance", { query: { accountNumber } });
  const rec = r.ok ? r.data.ResponseData[0] : undefined;
  return rec ? toCents(rec.AVAILBAL, "AVAILBAL") : null;
}

async function approvedNow(db: Queryable, s: SweepRow): Promise<boolean> {
  const voters = await db.query<{ approver_id: string }>(
    `SELECT approver_id FROM sweep_approvals WHERE sweep_id = $1 AND version = $2 AND approver_id <> $3
     ORDER BY approved_at, approver_id`,
    [s.id, s.version, s.prepared_by],
  );
  return (
    await sweepApproval(
      db,
      s,
      voters.map((v) => v.approver_id),
    )
  ).approved;
}

export type SlotOutcome = "moved" | "inside" | "short" | "failed" | "taken" | "unapproved" | "retry";

async function finish(
  db: Queryable,
  m: Pick<SweepMoveRow, "sweep_id" | "day" | "slot">,
  token: string,
  status: SweepMoveStatus,
  reason: string | null,
  answer: unknown,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE sweep_moves SET status = $5, reason = coalesce($6, reason), bank_answer = $7::jsonb, claim_token = NULL,
       updated_at = now()
     WHERE sweep_id = $1 AND day = $2 AND slot = $3 AND claim_token = $4 RETURNING 1`,
    [m.sweep_id, m.day, m.slot, token, status, reason, answer === undefined ? null : JSON.stringify(answer)],
  );
  return rows.length > 0;
}

/** Sends a claimed move's stored request and writes down the answer; an unanswered send stays claimed for the next run. */
async function send(
  db: Queryable,
  bank: BankClient,
  s: SweepRow,
  m: SweepMoveRow,
  token: string,
): Promise<SlotOutcome> {
  const result: BankResult<unknown> = await bank.call("transferSen", {
    body: m.request as never,
    idempotencyKey: m.key,
  });
  const detail = {
    sweep: s.name,
    sweepId: s.id,
    day: m.day,
    slot: m.slot,
    direction: m.direction,
    amountCents: m.amount_cents,
    from: m.from_account,
    to: m.to_account,
    availableCents: m.available_cents,
    fundingAvailableCents: m.funding_available_cents,
  };
  if (result.ok) {
    const mine = await finish(db, m, token, "sent", null, result.data);
    await appendAudit(db, {
      ...SYSTEM,
      action: "sweep.move",
      target: m.key,
      result: mine ? "sent" : "taken over",
      detail,
    });
    return mine ? "moved" : "taken";
  }
  if (result.error.kind === "rejected") {
    const reason = `the bank refused it: ${result.error.message}`;
    const mine = await finish(db, m, token, "failed", reason, { error: result.error.message });
    await appendAudit(db, {
      ...SYSTEM,
      action: "sweep.move",
      target: m.key,
      result: "failed",
      detail: { ...detail, reason },
    });
    return mine ? "failed" : "taken";
  }
  // No answer: the claim stays, and once its lease is over a run resends the same request under the same key.
  await appendAudit(db, {
    ...SYSTEM,
    action: "sweep.move",
    target: m.key,
    result: "bank unavailable",
    detail: { ...detail, error: result.error.message },
  });
  return "retry";
}

/** Tries of a slot whose balances another slot's move made stale, and the pause between them. */
const PLAN_TRIES = 20;
const PLAN_PAUSE_MS = 250;

/**
 * Runs one slot of one sweep: once, whichever instance or retry gets here first. The balances are
 * read before the claim; the claim is the slot's row, written with the plan it was made from. One
 * dip is met by one move: the day's run and a crossing's slot (or two crossings) that read the same
 * balances would both move, so a slot claims only while no other move of the sweep is on its way
 * and none was sent since its balances were read; else it reads them again once that move is done.
 */
export async function runSweepSlot(
  db: DashboardDb,
  bank: BankClient,
  s: SweepRow,
  day: string,
  slot: string,
): Promise<SlotOutcome> {
  for (let i = 0; i < PLAN_TRIES; i++) {
    const out = await planAndClaim(db, bank, s, day, slot);
    if (out !== "stale") return out;
    await new Promise((r) => setTimeout(r, PLAN_PAUSE_MS));
  }
  // A move of the sweep still on its way (its run died mid-send): its lease ends it; the day's run
  // comes back to this slot, a crossing is met by the runs after.
  return "retry";
}

async function planAndClaim(
  db: DashboardDb,
  bank: BankClient,
  s: SweepRow,
  day: string,
  slot: string,
): Promise<SlotOutcome | "stale"> {
  const taken = await db.query("SELECT 1 FROM sweep_moves WHERE sweep_id = $1 AND day = $2 AND slot = $3", [
    s.id,
    day,
    slot,
  ]);
  if (taken[0]) return "taken";
  if (!(await approvedNow(db, s))) return "unapproved";
  // The database's clock before the balances are read: a move sent after it is not in them.
  const [{ read_at: readAt }] = await db.query<{ read_at: string }>(
    "SELECT clock_timestamp()::text AS read_at",
  );
  const [kept, funding] = await Promise.all([available(bank, s.account), available(bank, s.funding_account)]);
  if (kept === null || funding === null) return "retry";
  const band = { lowCents: s.low_cents, highCents: s.high_cents };
  // Above the band the kept account pays, and it has the excess: what leaves is at most what it has.
  const plan = planSweepMove(band, kept, funding);
  const key = sweepMoveKey(s.id, day, slot);
  const token = randomUUID();
  const description = `Sweep ${s.name}`.slice(0, DESCRIPTION_MAX);
  const move =
    plan.status === "sending"
      ? plan.direction === "fund"
        ? { from: s.funding_account, to: s.account }
        : { from: s.account, to: s.funding_account }
      : null;
  const request =
    plan.status === "sending" && move
      ? {
          AccountNumberFrom: move.from,
          AccountNumberTo: move.to,
          Amount: centsToDollars(plan.amountCents),
          AccountFromDescription2: description,
          AccountToDescription2: description,
        }
      : null;
  const reason =
    plan.status === "short"
      ? `${s.funding_account} has nothing available to fund it`
      : plan.status === "sending" && plan.partial
        ? `${s.funding_account} had only ${formatUsd(plan.amountCents)} available`
        : null;
  const claimed = await db.tx(async (q) => {
    // One slot of a sweep at a time decides whether its balances still hold.
    await q.query("SELECT 1 FROM sweeps WHERE id = $1 FOR UPDATE", [s.id]);
    const moving = await q.query(
      `SELECT 1 FROM sweep_moves WHERE sweep_id = $1
         AND (status = 'sending' OR (status = 'sent' AND updated_at >= $2::timestamptz)) LIMIT 1`,
      [s.id, readAt],
    );
    if (moving[0]) return "stale" as const;
    return q.query<SweepMoveRow>(
      `INSERT INTO sweep_moves (sweep_id, day, slot, key, status, direction, from_account, to_account, amount_cents,
       available_cents, funding_available_cents, request, claim_token, claimed_at, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, CASE WHEN $5 = 'sending' THEN now() END, $14)
     ON CONFLICT DO NOTHING RETURNING *`,
      [
        s.id,
        day,
        slot,
        key,
        plan.status,
        plan.status === "inside" ? null : plan.direction,
        move?.from ?? null,
        move?.to ?? null,
        plan.status === "sending" ? plan.amountCents : 0,
        kept,
        funding,
        request ? JSON.stringify(request) : null,
        plan.status === "sending" ? token : null,
        reason,
      ],
    );
  });
  if (claimed === "stale") return "stale";
  const m = claimed[0];
  if (!m) return "taken";
  if (plan.status !== "sending") {
    if (plan.status === "short")
      await appendAudit(db, {
        ...SYSTEM,
        action: "sweep.move",
        target: key,
        result: "short",
        detail: {
          sweep: s.name,
          sweepId: s.id,
          day,
          slot,
          availableCents: kept,
          fundingAvailableCents: funding,
          reason,
        },
      });
    return plan.status;
  }
  return send(db, bank, s, m, token);
}

/** Resends moves whose run died mid-send (their lease over), under their own key and request. */
async function finishAbandoned(db: Queryable, bank: BankClient, leaseSeconds: number): Promise<number> {
  const token = randomUUID();
  const rows = await db.query<SweepMoveRow>(
    `UPDATE sweep_moves m SET claim_token = $1, claimed_at = now(), updated_at = now()
     FROM (SELECT sweep_id, day, slot FROM sweep_moves
           WHERE status = 'sending' AND claimed_at < now() - make_interval(secs => $2)
           ORDER BY claimed_at LIMIT 50 FOR UPDATE SKIP LOCKED) c
     WHERE m.sweep_id = c.sweep_id AND m.day = c.day AND m.slot = c.slot RETURNING m.*`,
    [token, leaseSeconds],
  );
  let moved = 0;
  for (const m of rows) {
    const [s] = await db.query<SweepRow>("SELECT * FROM sweeps WHERE id = $1", [m.sweep_id]);
    if ((await send(db, bank, s, m, token)) === "moved") moved++;
  }
  return moved;
}

export interface SweepRunOptions {
  /** The bank's business date. */
  today: string;
  /** The bank's time of day, HH:MM: sweeps whose time has come run their day's slot. */
  time: string;
  leaseSeconds?: number;
}

export type SweepRunReport = Record<SlotOutcome, number>;

const emptyReport = (): SweepRunReport => ({
  moved: 0,
  inside: 0,
  short: 0,
  failed: 0,
  taken: 0,
  unapproved: 0,
  retry: 0,
});

/** The day's run of every active sweep whose time has come (once a day each), and any move a dead run left. */
export async function runSweeps(
  db: DashboardDb,
  bank: BankClient,
  o: SweepRunOptions,
): Promise<SweepRunReport> {
  const report = emptyReport();
  report.moved += await finishAbandoned(db, bank, o.leaseSeconds ?? 120);
  if (!isBusinessDay(o.today)) return report;
  const due = await db.query<SweepRow>(
    `SELECT s.* FROM sweeps s WHERE s.status = 'active' AND s.run_at <= $2
       AND NOT EXISTS (SELECT 1 FROM sweep_moves m WHERE m.sweep_id = s.id AND m.day = $1 AND m.slot = 'run')
     ORDER BY s.run_at, s.id`,
    [o.today, o.time],
  );
  for (const s of due) report[await runSweepSlot(db, bank, s, o.today, "run")]++;
  return report;
}

export interface BalanceCrossing {
  accountNumber: string;
  availableCents: number;
  previousCents: number;
  /** The notification's id: one crossing, one slot, however often it is delivered. */
  crossingId: string;
  today: string;
}

/** Runs the sweeps of an account whose balance notification crossed their band. */
export async function runSweepsOnCrossing(
  db: DashboardDb,
  bank: BankClient,
  n: BalanceCrossing,
): Promise<SweepRunReport> {
  const report = emptyReport();
  if (!isBusinessDay(n.today)) return report;
  const sweeps = await db.query<SweepRow>(
    `SELECT * FROM sweeps WHERE status = 'active' AND account = $1 ORDER BY id`,
    [n.accountNumber],
  );
  for (const s of sweeps) {
    const band = { lowCents: s.low_cents, highCents: s.high_cents };
    if (!crossesBand(band, n.previousCents, n.availableCents)) continue;
    report[await runSweepSlot(db, bank, s, n.today, `crossing:${n.crossingId}`)]++;
  }
  return report;
}
