// The wire form's duplicate check: drafts to the same beneficiary account for the same amount.
import "server-only";
import type { Draft } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import { DRAFT_SELECT, type ReadRow, toDrafts } from "./drafts.ts";

/** Wires prepared in the last 7 days to the same beneficiary account for the same amount. */
export async function recentSameWires(
  db: Queryable,
  beneficiaryAccount: string,
  amountCents: number,
): Promise<Draft[]> {
  const rows = await db.query<ReadRow>(
    `${DRAFT_SELECT}
     WHERE d.kind = 'wire' AND d.amount_cents = $2 AND d.request->>'beneficiary_account_number' = $1
       AND d.status <> 'rejected' AND d.prepared_at > now() - interval '7 days'
     ORDER BY d.prepared_at DESC LIMIT 20`,
    [beneficiaryAccount, amountCents],
  );
  return toDrafts(db, rows);
}
