// A payee change as it is recorded and shown: which fields decide where a beneficiary's money
// lands, what a change does field by field (account numbers and bank ids masked), a change's row
// as the API's PayeeChange, the recording of a change for a second person, and the audit line
// every step of a saved beneficiary writes (docs/decisions.md, "Payee control").
import "server-only";
import { randomUUID } from "node:crypto";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import type { PayeeChange, PayeeFieldChange } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import type { beneficiaryChanges } from "../db/schema.ts";
import {
  PAYEE_DESTINATION_FIELDS,
  PAYEE_FIELD_WORDS,
  PAYEE_MASKED_FIELDS,
} from "../form-rules/send-money-fields.ts";
import { maskAccountNumber } from "../format/money.ts";
import type { SqlRow } from "../server/sql-row.ts";

export type ChangeRow = SqlRow<typeof beneficiaryChanges>;

export type Fields = Record<string, string>;

export const iso = (d: Date | string) => new Date(d).toISOString();

/** The fields that decide where the money lands, those given only. */
export function destinationOf(fields: Fields): Fields {
  return Object.fromEntries(PAYEE_DESTINATION_FIELDS.flatMap((f) => (fields[f] ? [[f, fields[f]]] : [])));
}

/** The other fields (name, address lines): they change without a second person. */
export const partyOf = (fields: Fields): Fields =>
  Object.fromEntries(
    Object.entries(fields).filter(([f]) => !(PAYEE_DESTINATION_FIELDS as readonly string[]).includes(f)),
  );

export const masked = (field: string, value: string | undefined) =>
  !value ? "" : PAYEE_MASKED_FIELDS.has(field) ? maskAccountNumber(value) : value;

/**
 * What a change does, field by field, with account numbers and bank ids masked; `full` adds the
 * whole old and new values, for the page where the change is decided.
 */
export function payeeFieldChanges(before: Fields | null, after: Fields, full = false): PayeeFieldChange[] {
  return PAYEE_DESTINATION_FIELDS.filter((f) => (before?.[f] ?? "") !== (after[f] ?? "")).map((f) => ({
    field: f,
    words: PAYEE_FIELD_WORDS[f],
    before: masked(f, before?.[f]),
    after: masked(f, after[f]),
    ...(full ? { beforeFull: before?.[f] ?? "", afterFull: after[f] ?? "" } : {}),
  }));
}

export function toPayeeChange(r: ChangeRow, full = false): PayeeChange {
  return {
    id: r.id,
    beneficiaryId: r.beneficiary_id,
    kind: r.kind as PayeeChange["kind"],
    status: r.status as PayeeChange["status"],
    label: r.label,
    fields: payeeFieldChanges(r.before, r.after, full),
    changedBy: { id: r.changed_by, email: r.changed_by_email },
    changedAt: iso(r.changed_at),
    decidedBy: r.decided_by ? { id: r.decided_by, email: r.decided_by_email ?? "" } : null,
    decidedAt: r.decided_at ? iso(r.decided_at) : null,
  };
}

export const maskedFields = (f: Fields): Fields =>
  Object.fromEntries(Object.entries(f).map(([k, v]) => [k, masked(k, v)]));

export function auditBeneficiary(
  db: Queryable,
  actor: Actor,
  action: string,
  id: string,
  detail: Record<string, unknown>,
  result = "ok",
) {
  return appendAudit(db, { ...auditActor(actor, actor.ip), action, target: id, result, detail });
}

/** Records a change for a second person; the unique index keeps one pending per beneficiary. */
export async function proposeChange(
  db: Queryable,
  actor: Actor,
  c: {
    beneficiaryId: string;
    kind: "create" | "change";
    label: string;
    before: Fields | null;
    after: Fields;
  },
): Promise<ChangeRow> {
  const rows = await db.query<ChangeRow>(
    `INSERT INTO beneficiary_changes (id, beneficiary_id, kind, label, before, after, changed_by, changed_by_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [
      randomUUID(),
      c.beneficiaryId,
      c.kind,
      c.label,
      c.before ? JSON.stringify(c.before) : null,
      JSON.stringify(c.after),
      actor.id,
      actor.email,
    ],
  );
  return rows[0];
}
