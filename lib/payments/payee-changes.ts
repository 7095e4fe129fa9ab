// The payee changes a release must see: a wire whose saved beneficiary was added or had its
// account or bank details changed in the last 30 days (or has a change waiting now) carries them,
// so the release dialog says what changed, when, who changed it and who approved it. A wire typed
// by hand to an account that a recent change pointed a beneficiary at carries that change too.
import "server-only";
import type { Draft } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import type { beneficiaryChanges } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { toPayeeChange } from "./payee-change-record.ts";

/** How far back a payee change is shown at release. */
export const PAYEE_CHANGE_DAYS = 30;

type Found = SqlRow<typeof beneficiaryChanges> & { draft_id: string; draft_beneficiary_id: string | null };

export async function withPayeeChanges(db: Queryable, drafts: Draft[]): Promise<Draft[]> {
  const wires = drafts.filter((d) => d.kind === "wire").map((d) => d.id);
  if (!wires.length) return drafts;
  const [links, found] = await Promise.all([
    db.query<{ id: string; beneficiary_id: string | null }>(
      "SELECT id, beneficiary_id FROM payment_drafts WHERE id = ANY($1::uuid[])",
      [wires],
    ),
    db.query<Found>(
      `SELECT c.*, d.id AS draft_id, d.beneficiary_id AS draft_beneficiary_id
       FROM payment_drafts d
       JOIN beneficiary_changes c
         ON c.beneficiary_id = d.beneficiary_id
         OR (c.after->>'beneficiary_account_number' = d.request->>'beneficiary_account_number')
       WHERE d.id = ANY($1::uuid[])
         AND (c.status = 'pending'
              OR (c.status = 'approved' AND c.decided_at > now() - make_interval(days => $2)))
       ORDER BY c.changed_at DESC`,
      [wires, PAYEE_CHANGE_DAYS],
    ),
  ]);
  const linked = new Map(links.map((l) => [l.id, l.beneficiary_id]));
  const byDraft = new Map<string, Found[]>();
  for (const f of found) byDraft.set(f.draft_id, [...(byDraft.get(f.draft_id) ?? []), f]);
  return drafts.map((d) =>
    d.kind !== "wire"
      ? d
      : {
          ...d,
          beneficiaryId: linked.get(d.id) ?? null,
          payeeChanges: (byDraft.get(d.id) ?? []).map((c) => toPayeeChange(c)),
        },
  );
}
