// The wire check of a saved beneficiary: a wire it fills must find nothing of it waiting for
// approval and must carry its approved account and bank details unchanged.
import "server-only";
import type { Queryable } from "../db/client.ts";
import { PAYEE_DESTINATION_FIELDS, PAYEE_FIELD_WORDS } from "../form-rules/send-money-fields.ts";
import { conflict, invalid } from "../route-kit/errors.ts";
import { getBeneficiary } from "./beneficiaries.ts";

/**
 * A wire filled from a saved beneficiary: the beneficiary must have nothing waiting for approval,
 * and the wire must carry its approved account and bank details unchanged.
 */
export async function checkBeneficiaryFillsWire(
  db: Queryable,
  beneficiaryId: string,
  wire: Record<string, unknown>,
): Promise<void> {
  const b = await getBeneficiary(db, beneficiaryId);
  if (!b)
    throw invalid([
      { field: "beneficiaryId", message: "is not a saved beneficiary (it may have been deleted)" },
    ]);
  const waiting = b.pendingChange;
  if (waiting)
    throw conflict(
      waiting.kind === "create"
        ? `“${b.label}” is a new beneficiary waiting for approval (added by ${waiting.changedBy.email}): it cannot fill a wire until another person approves it.`
        : `“${b.label}” has a change waiting for approval (by ${waiting.changedBy.email}): it cannot fill a wire until another person approves or rejects the change.`,
      [{ field: "beneficiaryId", message: "waits for approval" }],
    );
  const differs = PAYEE_DESTINATION_FIELDS.filter((f) => String(wire[f] ?? "") !== (b.fields[f] ?? ""));
  if (differs.length)
    throw invalid([
      {
        field: "beneficiaryId",
        message: `does not match the approved details of “${b.label}” (${differs.map((f) => PAYEE_FIELD_WORDS[f]).join(", ")})`,
      },
    ]);
}
