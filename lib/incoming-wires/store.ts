// The dashboard's record of incoming-wire decisions and votes (tables incoming_wire_decisions and
// incoming_wire_votes): written before anything is sent, read to build the queue.
import { randomUUID } from "node:crypto";
import type { IncomingWireAction } from "../dashboard-api/incoming-wires.ts";
import type { Queryable } from "../db/client.ts";
import type { incomingWireDecisions, incomingWireVotes } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";

export type DecisionState = "sending" | "sent" | "queued" | "unconfirmed" | "done" | "rejected" | "failed";

export interface Approver {
  id: string;
  email: string;
}

export interface DecisionRow {
  id: string;
  paymentId: string;
  accountNumber: string;
  action: IncomingWireAction;
  paymentTimestamp: string;
  amountCents: number;
  originatorName: string;
  approvers: Approver[];
  decidedById: string;
  decidedByEmail: string;
  state: DecisionState;
  channel: "primary" | "backup";
  bankStatus: string | null;
  bankTimestamp: string | null;
  message: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface VoteRow {
  paymentId: string;
  userId: string;
  userEmail: string;
  accountNumber: string;
  action: IncomingWireAction;
  paymentTimestamp: string;
  amountCents: number;
  at: string;
}

const DECISION_COLUMNS = `id, payment_id, account_number, action, payment_timestamp, amount_cents, originator_name,
  approvers, decided_by_id, decided_by_email, state, channel, bank_status, bank_timestamp, message, created_at, updated_at`;

type RawDecision = SqlRow<typeof incomingWireDecisions>;

function toDecision(r: RawDecision): DecisionRow {
  return {
    id: r.id,
    paymentId: r.payment_id,
    accountNumber: r.account_number,
    action: r.action as IncomingWireAction,
    paymentTimestamp: r.payment_timestamp,
    amountCents: r.amount_cents,
    originatorName: r.originator_name,
    approvers: r.approvers,
    decidedById: r.decided_by_id,
    decidedByEmail: r.decided_by_email,
    state: r.state as DecisionState,
    channel: r.channel === "backup" ? "backup" : "primary",
    bankStatus: r.bank_status,
    bankTimestamp: r.bank_timestamp,
    message: r.message,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function liveDecision(q: Queryable, paymentId: string): Promise<DecisionRow | null> {
  const rows = await q.query<RawDecision>(
    `SELECT ${DECISION_COLUMNS} FROM incoming_wire_decisions
     WHERE payment_id = $1 AND state NOT IN ('rejected', 'failed')`,
    [paymentId],
  );
  return rows[0] ? toDecision(rows[0]) : null;
}

/** Decisions still waiting for the bank, and those made since `since` (the "Decided today" list). */
export async function recentAndOpenDecisions(q: Queryable, since: Date): Promise<DecisionRow[]> {
  const rows = await q.query<RawDecision>(
    `SELECT ${DECISION_COLUMNS} FROM incoming_wire_decisions
     WHERE state IN ('sending', 'queued', 'unconfirmed')
        OR (created_at >= $1 AND state NOT IN ('rejected', 'failed'))
     ORDER BY created_at DESC`,
    [since],
  );
  return rows.map(toDecision);
}

/** A decision as it is first recorded: the payment it is about, and who decided it. */
export type NewDecision = Pick<
  DecisionRow,
  | "paymentId"
  | "accountNumber"
  | "action"
  | "paymentTimestamp"
  | "amountCents"
  | "originatorName"
  | "approvers"
> & { decidedBy: Approver };

/**
 * Records a decision in state `sending`, before anything goes to the bank. Returns null when the
 * payment already has a live decision (someone else decided it first).
 */
export async function recordDecision(q: Queryable, d: NewDecision): Promise<DecisionRow | null> {
  const rows = await q.query<RawDecision>(
    `INSERT INTO incoming_wire_decisions (id, payment_id, account_number, action, payment_timestamp, amount_cents,
       originator_name, approvers, decided_by_id, decided_by_email, state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'sending')
     ON CONFLICT (payment_id) WHERE state NOT IN ('rejected', 'failed') DO NOTHING
     RETURNING ${DECISION_COLUMNS}`,
    [
      randomUUID(),
      d.paymentId,
      d.accountNumber,
      d.action,
      d.paymentTimestamp,
      d.amountCents,
      d.originatorName,
      JSON.stringify(d.approvers),
      d.decidedBy.id,
      d.decidedBy.email,
    ],
  );
  return rows[0] ? toDecision(rows[0]) : null;
}

export async function updateDecision(
  q: Queryable,
  id: string,
  patch: Partial<Pick<DecisionRow, "state" | "channel" | "bankStatus" | "bankTimestamp" | "message">>,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  const put = (col: string, v: unknown) => {
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  };
  if (patch.state !== undefined) put("state", patch.state);
  if (patch.channel !== undefined) put("channel", patch.channel);
  if (patch.bankStatus !== undefined) put("bank_status", patch.bankStatus);
  if (patch.bankTimestamp !== undefined) put("bank_timestamp", patch.bankTimestamp);
  if (patch.message !== undefined) put("message", patch.message);
  params.push(id);
  await q.query(
    `UPDATE incoming_wire_decisions SET ${sets.join(", ")}, updated_at = now() WHERE id = $${params.length}`,
    params,
  );
}

type RawVote = SqlRow<typeof incomingWireVotes>;

const toVote = (r: RawVote): VoteRow => ({
  paymentId: r.payment_id,
  userId: r.user_id,
  userEmail: r.user_email,
  accountNumber: r.account_number,
  action: r.action as IncomingWireAction,
  paymentTimestamp: r.payment_timestamp,
  amountCents: r.amount_cents,
  at: new Date(r.at).toISOString(),
});

export async function votesFor(q: Queryable, paymentIds: readonly string[]): Promise<VoteRow[]> {
  if (!paymentIds.length) return [];
  const rows = await q.query<RawVote>(
    `SELECT payment_id, user_id, user_email, account_number, action, payment_timestamp, amount_cents, at
     FROM incoming_wire_votes WHERE payment_id = ANY($1::text[]) ORDER BY at`,
    [paymentIds],
  );
  return rows.map(toVote);
}

/**
 * Casts (or changes) one approver's vote and returns every vote on the payment, in one
 * transaction under a per-payment lock: of two approvers voting at once, the second sees the first.
 */
export async function castVote(tx: Queryable, v: Omit<VoteRow, "at">): Promise<VoteRow[]> {
  await tx.query("SELECT pg_advisory_xact_lock(72430004, hashtext($1))", [v.paymentId]);
  await tx.query(
    `INSERT INTO incoming_wire_votes (payment_id, user_id, user_email, account_number, action, payment_timestamp, amount_cents)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (payment_id, user_id) DO UPDATE
       SET action = EXCLUDED.action, payment_timestamp = EXCLUDED.payment_timestamp, at = now()`,
    [v.paymentId, v.userId, v.userEmail, v.accountNumber, v.action, v.paymentTimestamp, v.amountCents],
  );
  return votesFor(tx, [v.paymentId]);
}
