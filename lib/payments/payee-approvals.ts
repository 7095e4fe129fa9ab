// Payee approvals: a second person approves or rejects a saved beneficiary's waiting change
// (docs/decisions.md, "Payee control"); approving puts its details in place, rejecting a new
// beneficiary removes it. Its author never decides it, and each decision is audited.
import "server-only";
import type { Actor } from "../audit/log.ts";
import { isId } from "../dashboard-api/ids.ts";
import type { Beneficiary, PayeeChange } from "../dashboard-api/wires.ts";
import type { DashboardDb } from "../db/client.ts";
import { conflict, forbidden, notFound } from "../route-kit/errors.ts";
import { getBeneficiary } from "./beneficiaries.ts";
import {
  auditBeneficiary as audit,
  type ChangeRow,
  type Fields,
  iso,
  partyOf,
  payeeFieldChanges,
  toPayeeChange,
} from "./payee-change-record.ts";

const PAST = { approved: "approved", rejected: "rejected", withdrawn: "withdrawn" } as Record<string, string>;

/**
 * A second person approves or rejects the change they reviewed (its id): never its author, and
 * never a change replaced or decided since. Approving a change puts its details in place;
 * rejecting a new beneficiary removes it, rejecting a change keeps the approved details.
 */
export async function decideBeneficiaryChange(
  db: DashboardDb,
  actor: Actor,
  beneficiaryId: string,
  changeId: string,
  decision: "approve" | "reject",
): Promise<{ beneficiary: Beneficiary | null; change: PayeeChange }> {
  if (!isId(beneficiaryId)) throw notFound("No such saved beneficiary.");
  const status = decision === "approve" ? "approved" : "rejected";
  const decided = await db.tx(async (q) => {
    await q.query("SELECT id FROM beneficiaries WHERE id = $1 FOR UPDATE", [beneficiaryId]);
    const rows = await q.query<ChangeRow>(
      `UPDATE beneficiary_changes SET status = $4, decided_by = $3, decided_by_email = $5, decided_at = now()
       WHERE id = $1 AND beneficiary_id = $2 AND status = 'pending' AND changed_by <> $3 RETURNING *`,
      [changeId, beneficiaryId, actor.id, status, actor.email],
    );
    const c = rows[0];
    if (!c) return null;
    if (c.kind === "change" && decision === "approve") {
      const current = await q.query<{ fields: Fields }>("SELECT fields FROM beneficiaries WHERE id = $1", [
        beneficiaryId,
      ]);
      await q.query("UPDATE beneficiaries SET fields = $2 WHERE id = $1", [
        beneficiaryId,
        JSON.stringify({ ...partyOf(current[0]?.fields ?? {}), ...c.after }),
      ]);
    }
    // A new beneficiary nobody approved is not kept.
    if (c.kind === "create" && decision === "reject")
      await q.query("DELETE FROM beneficiaries WHERE id = $1", [beneficiaryId]);
    await audit(
      q,
      actor,
      decision === "approve" ? "beneficiary.approve" : "beneficiary.reject",
      beneficiaryId,
      {
        changeId: c.id,
        kind: c.kind,
        label: c.label,
        changedBy: c.changed_by_email,
        changedAt: iso(c.changed_at),
        fields: payeeFieldChanges(c.before, c.after),
      },
      decision === "approve" ? "ok" : "rejected",
    );
    return c;
  });
  if (decided)
    return { beneficiary: await getBeneficiary(db, beneficiaryId), change: toPayeeChange(decided) };

  const rows = await db.query<ChangeRow>(
    "SELECT * FROM beneficiary_changes WHERE id = $1 AND beneficiary_id = $2",
    [isId(changeId) ? changeId : null, beneficiaryId],
  );
  const c = rows[0];
  if (!c) throw notFound("No such change to this saved beneficiary.");
  if (c.status === "pending" && c.changed_by === actor.id) {
    await audit(
      db,
      actor,
      decision === "approve" ? "beneficiary.approve" : "beneficiary.reject",
      beneficiaryId,
      { changeId: c.id, reason: "own change" },
      "denied",
    );
    throw forbidden(`You made this change; another approver must ${decision} it.`);
  }
  throw conflict(
    c.status === "withdrawn"
      ? "This change was replaced or withdrawn after you opened it. Review the beneficiary again."
      : `This change was already ${PAST[c.status]} by ${c.decided_by_email ?? "someone else"}.`,
  );
}
