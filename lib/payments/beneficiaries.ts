// Saved wire beneficiaries (templates that fill the wire form), kept in the dashboard database.
import "server-only";
import { randomUUID } from "node:crypto";
import { conflict, notFound } from "../api/errors.ts";
import { type Actor, appendAudit, auditActor } from "../auth/audit.ts";
import type { Beneficiary, BeneficiaryTemplate } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import type { beneficiaries } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";

type Row = Pick<SqlRow<typeof beneficiaries>, "id" | "label" | "fields" | "created_by_email" | "created_at">;

const toBeneficiary = (r: Row): Beneficiary => ({
  id: r.id,
  label: r.label,
  fields: r.fields,
  createdBy: r.created_by_email,
  createdAt: new Date(r.created_at).toISOString(),
});

export async function listBeneficiaries(db: Queryable): Promise<Beneficiary[]> {
  const rows = await db.query<Row>("SELECT * FROM beneficiaries ORDER BY lower(label)");
  return rows.map(toBeneficiary);
}

/** Only the fields given: an empty field is not part of the template. */
const kept = (fields: BeneficiaryTemplate) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== "" && v !== undefined));

const labelTaken = () =>
  conflict("A saved beneficiary already has this name.", [
    { field: "label", message: "is already used by another saved beneficiary" },
  ]);

/** A unique-index violation on the label (another beneficiary's name). */
const isLabelClash = (e: unknown) => (e as { code?: string } | null)?.code === "23505";

function audit(db: Queryable, actor: Actor, action: string, id: string, detail: Record<string, unknown>) {
  return appendAudit(db, {
    ...auditActor(actor, actor.ip),
    action,
    target: id,
    result: "ok",
    detail,
  });
}

export async function createBeneficiary(
  db: Queryable,
  actor: Actor,
  label: string,
  fields: BeneficiaryTemplate,
): Promise<Beneficiary> {
  const given = kept(fields);
  const rows = await db.query<Row>(
    `INSERT INTO beneficiaries (id, label, fields, created_by, created_by_email)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING *`,
    [randomUUID(), label, JSON.stringify(given), actor.id, actor.email],
  );
  if (!rows[0]) throw labelTaken();
  await audit(db, actor, "beneficiary.create", rows[0].id, {
    label,
    beneficiary: given.beneficiary_name,
    account: given.beneficiary_account_number,
  });
  return toBeneficiary(rows[0]);
}

/** Replaces a saved beneficiary's name and fields; the audit keeps what it was before. */
export async function updateBeneficiary(
  db: Queryable,
  actor: Actor,
  id: string,
  label: string,
  fields: BeneficiaryTemplate,
): Promise<Beneficiary> {
  const given = kept(fields);
  const before = await getBeneficiary(db, id);
  if (!before) throw notFound("No such saved beneficiary.");
  let rows: Row[];
  try {
    rows = await db.query<Row>(
      `UPDATE beneficiaries SET label = $2, fields = $3 WHERE id = $1
         AND NOT EXISTS (SELECT 1 FROM beneficiaries o WHERE lower(o.label) = lower($2) AND o.id <> $1)
       RETURNING *`,
      [id, label, JSON.stringify(given)],
    );
  } catch (e) {
    if (isLabelClash(e)) throw labelTaken();
    throw e;
  }
  if (!rows[0]) throw (await getBeneficiary(db, id)) ? labelTaken() : notFound("No such saved beneficiary.");
  await audit(db, actor, "beneficiary.update", id, {
    label,
    beneficiary: given.beneficiary_name,
    account: given.beneficiary_account_number,
    before: { label: before.label, fields: before.fields },
  });
  return toBeneficiary(rows[0]);
}

const isId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export async function deleteBeneficiary(db: Queryable, actor: Actor, id: string): Promise<void> {
  if (!isId(id)) throw notFound("No such saved beneficiary.");
  const rows = await db.query<Row>("DELETE FROM beneficiaries WHERE id = $1 RETURNING *", [id]);
  if (!rows[0]) throw notFound("No such saved beneficiary.");
  await audit(db, actor, "beneficiary.delete", id, {
    label: rows[0].label,
    fields: rows[0].fields,
  });
}

export async function getBeneficiary(db: Queryable, id: string): Promise<Beneficiary | null> {
  if (!isId(id)) return null;
  const rows = await db.query<Row>("SELECT * FROM beneficiaries WHERE id = $1", [id]);
  return rows[0] ? toBeneficiary(rows[0]) : null;
}
