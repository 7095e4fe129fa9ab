// Saved wire beneficiaries (templates that fill the wire form), kept in the dashboard database,
// under the payee control (docs/decisions.md, "Payee control"): a new beneficiary, and a change to
// where a saved one's money lands (its account or any bank on the way), wait for a second person
// with beneficiaries.approve before the beneficiary can fill a wire (payee-approvals.ts). The
// label, the name and the address lines change alone. Every step is audited.
import "server-only";
import { randomUUID } from "node:crypto";
import type { Actor } from "../audit/log.ts";
import { readsAlike } from "../bank-api/lookalike.ts";
import { isId } from "../dashboard-api/ids.ts";
import type { Beneficiary, BeneficiaryTemplate } from "../dashboard-api/wires.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import type { beneficiaries } from "../db/schema.ts";
import { conflict, notFound } from "../route-kit/errors.ts";
import type { SqlRow } from "../server/sql-row.ts";
import {
  auditBeneficiary as audit,
  type ChangeRow,
  destinationOf,
  type Fields,
  iso,
  masked,
  maskedFields,
  partyOf,
  payeeFieldChanges,
  proposeChange,
  toPayeeChange,
} from "./payee-change-record.ts";

type Row = Pick<
  SqlRow<typeof beneficiaries>,
  "id" | "label" | "fields" | "created_by_email" | "created_at"
> & {
  /** The change waiting for a second person, as jsonb (to_jsonb of its row). */
  pending: ChangeRow | null;
};

const toBeneficiary = (r: Row): Beneficiary => ({
  id: r.id,
  label: r.label,
  fields: r.fields,
  createdBy: r.created_by_email,
  createdAt: iso(r.created_at),
  status: !r.pending ? "approved" : r.pending.kind === "create" ? "new" : "changed",
  // The list is where a change is decided: its approver sees the whole old and new values.
  pendingChange: r.pending ? toPayeeChange(r.pending, true) : null,
});

const SELECT = `SELECT b.id, b.label, b.fields, b.created_by_email, b.created_at, to_jsonb(c) AS pending
  FROM beneficiaries b
  LEFT JOIN beneficiary_changes c ON c.beneficiary_id = b.id AND c.status = 'pending'`;

export async function listBeneficiaries(db: Queryable): Promise<Beneficiary[]> {
  const rows = await db.query<Row>(`${SELECT} ORDER BY lower(b.label)`);
  return rows.map(toBeneficiary);
}

export async function getBeneficiary(db: Queryable, id: string): Promise<Beneficiary | null> {
  if (!isId(id)) return null;
  const rows = await db.query<Row>(`${SELECT} WHERE b.id = $1`, [id]);
  return rows[0] ? toBeneficiary(rows[0]) : null;
}

/** Only the fields given: an empty field is not part of the template. */
const kept = (fields: BeneficiaryTemplate): Fields =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== "" && v !== undefined)) as Fields;

const labelTaken = () =>
  conflict("A saved beneficiary already has this name.", [
    { field: "label", message: "is already used by another saved beneficiary" },
  ]);

/** Held while a new beneficiary is compared with the saved ones: two alike cannot slip in together. */
const LOOKALIKE_LOCK = 72420077;

/**
 * A new payee whose label or name reads the same as a saved beneficiary's without being the same
 * text (case, spacing, punctuation and look-alike letters set aside) is refused: an approver could
 * not tell them apart. The same name saved again (one payee, a second account) is no look-alike.
 */
async function refuseLookalike(q: Queryable, label: string, name: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock($1)", [LOOKALIKE_LOCK]);
  const saved = await q.query<{ label: string; name: string | null }>(
    "SELECT label, fields->>'beneficiary_name' AS name FROM beneficiaries",
  );
  const alike = (mine: string, theirs: string | null) =>
    !!theirs && mine !== "" && mine !== theirs && readsAlike(mine, theirs);
  for (const b of saved) {
    const field = alike(label, b.label) ? "label" : alike(name, b.name) ? "fields.beneficiary_name" : null;
    if (field)
      throw conflict(`This payee reads the same as the saved beneficiary "${b.label}".`, [
        {
          field,
          message: `reads the same as the saved beneficiary "${b.label}" (letters that look alike, spacing and case aside)`,
        },
      ]);
  }
}

/** A unique-index violation on the label (another beneficiary's name). */
const isLabelClash = (e: unknown) => (e as { code?: string } | null)?.code === "23505";

/** A new beneficiary: saved at once, and waiting for a second person before it fills a wire. */
export async function createBeneficiary(
  db: DashboardDb,
  actor: Actor,
  label: string,
  fields: BeneficiaryTemplate,
): Promise<Beneficiary> {
  const given = kept(fields);
  const id = await db.tx(async (q) => {
    await refuseLookalike(q, label, given.beneficiary_name ?? "");
    const rows = await q.query<{ id: string }>(
      `INSERT INTO beneficiaries (id, label, fields, created_by, created_by_email)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id`,
      [randomUUID(), label, JSON.stringify(given), actor.id, actor.email],
    );
    if (!rows[0]) throw labelTaken();
    const change = await proposeChange(q, actor, {
      beneficiaryId: rows[0].id,
      kind: "create",
      label,
      before: null,
      after: destinationOf(given),
    });
    await audit(
      q,
      actor,
      "beneficiary.create",
      rows[0].id,
      {
        label,
        beneficiary: given.beneficiary_name,
        account: masked("beneficiary_account_number", given.beneficiary_account_number),
        changeId: change.id,
      },
      "awaiting_approval",
    );
    return rows[0].id;
  });
  return (await getBeneficiary(db, id)) as Beneficiary;
}

/**
 * Changes a saved beneficiary. The label, name and address lines apply at once; a change to the
 * account or a bank waits for a second person, and the approved details stay until then. A
 * beneficiary not yet approved is replaced whole (its approval starts again, by this editor's
 * version). While a change to an approved one waits, it cannot be changed again.
 */
export async function updateBeneficiary(
  db: DashboardDb,
  actor: Actor,
  id: string,
  label: string,
  fields: BeneficiaryTemplate,
): Promise<Beneficiary> {
  if (!isId(id)) throw notFound("No such saved beneficiary.");
  const given = kept(fields);
  await db.tx(async (q) => {
    // Edits and decisions of one beneficiary take its row lock first; what waits is read after it,
    // in a statement of its own, so a change committed meanwhile is seen.
    await q.query("SELECT id FROM beneficiaries WHERE id = $1 FOR UPDATE", [id]);
    const found = await q.query<Row>(`${SELECT} WHERE b.id = $1`, [id]);
    const before = found[0];
    if (!before) throw notFound("No such saved beneficiary.");
    const pending = before.pending;
    if (pending?.kind === "change")
      throw conflict(
        `A change to “${before.label}” by ${pending.changed_by_email} waits for approval. It can be changed again once an approver has approved or rejected that change.`,
      );
    const oldDestination = destinationOf(before.fields);
    const newDestination = destinationOf(given);
    const moves = payeeFieldChanges(oldDestination, newDestination);
    // An approved beneficiary keeps its approved destination until a second person agrees.
    const stored = pending || !moves.length ? given : { ...partyOf(given), ...oldDestination };
    let rows: { id: string }[];
    try {
      rows = await q.query<{ id: string }>(
        `UPDATE beneficiaries SET label = $2, fields = $3 WHERE id = $1
           AND NOT EXISTS (SELECT 1 FROM beneficiaries o WHERE lower(o.label) = lower($2) AND o.id <> $1)
         RETURNING id`,
        [id, label, JSON.stringify(stored)],
      );
    } catch (e) {
      if (isLabelClash(e)) throw labelTaken();
      throw e;
    }
    if (!rows[0]) throw labelTaken();
    let change: ChangeRow | null = null;
    if (pending) {
      // Not yet approved: the approval now reviews this version, and its editor cannot give it.
      await q.query(
        `UPDATE beneficiary_changes SET status = 'withdrawn', decided_by = $2, decided_by_email = $3, decided_at = now()
         WHERE id = $1 AND status = 'pending'`,
        [pending.id, actor.id, actor.email],
      );
      change = await proposeChange(q, actor, {
        beneficiaryId: id,
        kind: "create",
        label,
        before: null,
        after: newDestination,
      });
    } else if (moves.length)
      change = await proposeChange(q, actor, {
        beneficiaryId: id,
        kind: "change",
        label,
        before: oldDestination,
        after: newDestination,
      });
    await audit(
      q,
      actor,
      "beneficiary.update",
      id,
      {
        label,
        beneficiary: given.beneficiary_name,
        before: { label: before.label, fields: { ...partyOf(before.fields) } },
        ...(change ? { changeId: change.id, waiting: payeeFieldChanges(change.before, change.after) } : {}),
      },
      change ? "awaiting_approval" : "ok",
    );
  });
  return (await getBeneficiary(db, id)) as Beneficiary;
}

export async function deleteBeneficiary(db: DashboardDb, actor: Actor, id: string): Promise<void> {
  if (!isId(id)) throw notFound("No such saved beneficiary.");
  await db.tx(async (q) => {
    const rows = await q.query<Pick<Row, "label" | "fields">>(
      "DELETE FROM beneficiaries WHERE id = $1 RETURNING label, fields",
      [id],
    );
    if (!rows[0]) throw notFound("No such saved beneficiary.");
    // A change waiting for it has nothing left to change.
    await q.query(
      `UPDATE beneficiary_changes SET status = 'withdrawn', decided_by = $2, decided_by_email = $3, decided_at = now()
       WHERE beneficiary_id = $1 AND status = 'pending'`,
      [id, actor.id, actor.email],
    );
    await audit(q, actor, "beneficiary.delete", id, {
      label: rows[0].label,
      fields: { ...partyOf(rows[0].fields), ...maskedFields(destinationOf(rows[0].fields)) },
    });
  });
}
