// Saved wire beneficiaries (templates that fill the wire form), kept in the dashboard database.
import "server-only";
import { randomUUID } from "node:crypto";
import { conflict } from "../api/errors.ts";
import { appendAudit } from "../auth/audit.ts";
import type { Beneficiary, BeneficiaryTemplate } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import type { beneficiaries } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";
import type { Actor } from "./drafts.ts";

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

export async function createBeneficiary(
  db: Queryable,
  actor: Actor,
  label: string,
  fields: BeneficiaryTemplate,
): Promise<Beneficiary> {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== "" && v !== undefined));
  const rows = await db.query<Row>(
    `INSERT INTO beneficiaries (id, label, fields, created_by, created_by_email)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING *`,
    [randomUUID(), label, JSON.stringify(kept), actor.id, actor.email],
  );
  if (!rows[0])
    throw conflict("A saved beneficiary already has this name.", [
      { field: "label", message: "is already used by another saved beneficiary" },
    ]);
  await appendAudit(db, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: "beneficiary.create",
    target: rows[0].id,
    result: "ok",
    detail: { label, beneficiary: kept.beneficiary_name, account: kept.beneficiary_account_number },
    ip: actor.ip,
  });
  return toBeneficiary(rows[0]);
}
