// /v2/payment/backup: while the wire system is down, payment requests are validated and logged
// (payment_backup_log); when it is back the log replays in `seq` order, each entry exactly once,
// also across restarts and instances.
import type {
  InitiatePaymentRequest,
  PaymentActionQuery,
  PaymentResponse,
} from "../../lib/bank-api/payments.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Clock } from "../clock.ts";
import type { Bank } from "../context.ts";
import type { Queryable } from "../db/client.ts";
import type { accounts, paymentBackupLog } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import { applyPaymentAction, checkPaymentAction } from "./actions.ts";
import { formatPaymentTimestamp, newPaymentId } from "./identity.ts";
import {
  type InitiateOutcome,
  type InitiateResult,
  initiateOutcome,
  initiateWire,
  wireDirection,
} from "./outgoing.ts";
import { outgoingDetails } from "./records.ts";
import { wireSystemStatus } from "./wire-system.ts";

/** Replayers take this lock per entry so that entries apply in order even with several instances. */
const REPLAY_LOCK = 72410002;

type LoggedRequest =
  | { kind: "action"; query: PaymentActionQuery }
  | { kind: "initiate"; body: InitiatePaymentRequest; paymentId: string };

/**
 * Logs an approve/cancel/return. The action is checked against the payment as it stands now
 * (unknown payment, wrong status, stale timestamp are refused at once); the answer is the
 * payment as it stands, its status changing when the log replays.
 */
export async function logPaymentAction(
  q: Queryable,
  clock: Clock,
  customerId: number,
  query: PaymentActionQuery,
): Promise<PaymentResponse> {
  const check = await checkPaymentAction(q, customerId, query);
  if ("rejected" in check) return check.rejected;
  await q.query(
    "INSERT INTO payment_backup_log (customer_id, kind, request, logged_at) VALUES ($1, 'action', $2, $3)",
    [customerId, JSON.stringify({ query }), clock.now()],
  );
  const p = check.payment;
  return { payment_id: p.id, payment_status: p.status, payment_timestamp: p.status_timestamp, Errors: [] };
}

/**
 * Logs an outgoing wire: the payment id is reserved at once in a Pre-Approval payment that
 * GET /v2/payment shows; the replay holds the funds and moves it to In-Progress, or cancels it
 * when it can no longer be sent (insufficient funds by then).
 *
 * With an Idempotency-Key the request is recorded under the key of POST /v2/payment (endpoint
 * `payment`) in the same transaction: a repeat with the same body gets the first answer and logs
 * nothing, one with another body is a key conflict, and a later POST /v2/payment with the key
 * answers the reserved payment instead of sending a second wire. Concurrent repeats wait on the
 * key's row, so one logs and the others answer from it.
 */
export async function logInitiatePayment(
  bank: Bank,
  customerId: number,
  body: InitiatePaymentRequest,
  idem: { key: string; hash: string } | null = null,
): Promise<InitiateOutcome> {
  return bank.db.tx(async (q) => {
    const now = bank.clock.now();
    if (idem) {
      const fresh = await q.query(
        `INSERT INTO idempotency_keys (customer_id, key, endpoint, request_hash, response, created_at)
         VALUES ($1, $2, 'payment', $3, '{}'::jsonb, $4) ON CONFLICT DO NOTHING RETURNING 1`,
        [customerId, idem.key, idem.hash, now],
      );
      if (!fresh.length) {
        const rows = await q.query<{ r: InitiateResult }>(
          `SELECT idempotent_answer($1, 'payment', $2, $3, '{"status":"key_conflict"}'::jsonb) AS r`,
          [customerId, idem.key, idem.hash],
        );
        return initiateOutcome(rows[0].r);
      }
    }
    const result = await reserveAndLog(q, bank.clock, now, customerId, body, idem?.key ?? null);
    if (idem)
      await q.query(
        "UPDATE idempotency_keys SET response = $4 WHERE customer_id = $1 AND endpoint = 'payment' AND key = $2 AND request_hash = $3",
        [customerId, idem.key, idem.hash, JSON.stringify(result)],
      );
    return initiateOutcome(result);
  });
}

async function reserveAndLog(
  q: Queryable,
  clock: Clock,
  now: Date,
  customerId: number,
  body: InitiatePaymentRequest,
  key: string | null,
): Promise<InitiateResult> {
  const acct = await q.query<Pick<SqlRow<typeof accounts>, "type" | "title_lines" | "short_name" | "status">>(
    "SELECT type, title_lines, short_name, status FROM accounts WHERE number = $1 AND customer_id = $2",
    [body.originator_account_number, customerId],
  );
  if (!acct.length)
    return { status: "rejected", code: "ACCOUNT_NOT_FOUND", field: "originator_account_number" };
  if (acct[0].status !== "A")
    return { status: "rejected", code: "ACCOUNT_CLOSED", field: "originator_account_number" };
  const date = clock.businessDate(now);
  const id = newPaymentId("O", date);
  const ts = formatPaymentTimestamp(now);
  const details = {
    ...outgoingDetails(body),
    originator_name: acct[0].title_lines[0] || acct[0].short_name,
    debit_account_type: acct[0].type,
  };
  await q.query(
    `INSERT INTO payments (id, customer_id, account_number, direction, status, status_timestamp, amount_cents,
       fedwire_type, fedwire_sub_type, payment_date, entry_at, idempotency_key, details)
     VALUES ($1, $2, $3, $4, 'Pre-Approval', $5, $6, '10', '00', $7, $8, $9, $10)`,
    [
      id,
      customerId,
      body.originator_account_number,
      await wireDirection(q, body),
      ts,
      body.amount,
      date,
      now,
      key,
      JSON.stringify(details),
    ],
  );
  await q.query(
    "INSERT INTO payment_backup_log (customer_id, kind, request, logged_at) VALUES ($1, 'initiate', $2, $3)",
    [customerId, JSON.stringify({ body, paymentId: id }), now],
  );
  return { status: "ok", payment_id: id, payment_status: "Pre-Approval", payment_timestamp: ts };
}

async function applyLogged(
  q: Queryable,
  clock: Clock,
  customerId: number,
  req: LoggedRequest,
): Promise<PaymentResponse | { error: unknown }> {
  if (req.kind === "action") return applyPaymentAction(q, clock, customerId, req.query);
  const out = await initiateWire(q, clock, { customerId, body: req.body, reservedId: req.paymentId });
  return out.kind === "response" ? out.response : { error: "key_conflict" };
}

/**
 * Replays pending entries in order until none is left (or the wire system goes down again).
 * Each entry is claimed, applied and marked in one transaction: an entry applies exactly once.
 */
export async function replayBackupLog(bank: Bank): Promise<number> {
  let applied = 0;
  for (;;) {
    const done = await bank.db.tx(async (q) => {
      await q.query("SELECT pg_advisory_xact_lock($1)", [REPLAY_LOCK]);
      if ((await wireSystemStatus(q)) === "down") return false;
      const rows = await q.query<
        Pick<SqlRow<typeof paymentBackupLog>, "seq" | "customer_id" | "kind" | "request">
      >(
        `SELECT seq, customer_id, kind, request FROM payment_backup_log WHERE replayed_at IS NULL
         ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!rows.length) return false;
      const entry = rows[0];
      const req = { kind: entry.kind, ...entry.request } as LoggedRequest;
      let result: unknown;
      await q.query("SAVEPOINT replay_entry");
      try {
        result = await applyLogged(q, bank.clock, entry.customer_id, req);
        await q.query("RELEASE SAVEPOINT replay_entry");
      } catch (err) {
        // A request that no longer applies (the payment moved on) is recorded, not retried.
        await q.query("ROLLBACK TO SAVEPOINT replay_entry");
        result =
          err instanceof HttpError
            ? { error: { status: err.status, message: err.message, errors: err.errors ?? [] } }
            : { error: { message: err instanceof Error ? err.message : String(err) } };
        if (!(err instanceof HttpError))
          bank.log.error("backup replay entry failed", { seq: entry.seq, err });
      }
      await q.query("UPDATE payment_backup_log SET replayed_at = $1, result = $2 WHERE seq = $3", [
        bank.clock.now(),
        JSON.stringify(result),
        entry.seq,
      ]);
      return true;
    });
    if (!done) {
      if (applied) bank.events.emit("balance-changed");
      return applied;
    }
    applied++;
  }
}

export async function pendingBackupEntries(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>(
    "SELECT count(*) AS n FROM payment_backup_log WHERE replayed_at IS NULL",
  );
  return rows[0].n;
}
