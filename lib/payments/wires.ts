// Outgoing wires start as drafts: the form's values become the initiate-payment body the bank
// will be sent on release, checked by the contract's schema before anything is saved. A wire
// filled from a saved beneficiary names it: the beneficiary must be approved, with nothing waiting
// for a second person, and the wire must carry its approved details (lib/payments/beneficiary-wire-check.ts).
import "server-only";
import type { Actor } from "../audit/log.ts";
import { centsToDollars } from "../bank-api/money.ts";
import { initiatePaymentRequest } from "../bank-api/payments.ts";
import { type Draft, type WireDraftValues, withoutBlanks } from "../dashboard-api/wires.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { checkBeneficiaryFillsWire } from "./beneficiary-wire-check.ts";
import { createDraft, updateDraft } from "./drafts.ts";

export function wireBody(v: WireDraftValues): Record<string, unknown> {
  const { idempotencyKey: _key, beneficiaryId: _b, amount, ...rest } = v;
  const body = withoutBlanks({ ...rest, amount: centsToDollars(amount) });
  // The contract's own check of the body as it will travel; the form schema already ran it.
  initiatePaymentRequest.parse(body);
  return body;
}

/** Records which saved beneficiary filled the draft (none: null), for the release to show its changes. */
async function linkBeneficiary(q: Queryable, draft: Draft, beneficiaryId: string | null): Promise<Draft> {
  if (draft.status === "pending")
    await q.query("UPDATE payment_drafts SET beneficiary_id = $2 WHERE id = $1 AND version = $3", [
      draft.id,
      beneficiaryId,
      draft.version,
    ]);
  return draft;
}

export async function prepareWireDraft(db: DashboardDb, actor: Actor, v: WireDraftValues) {
  const beneficiaryId = v.beneficiaryId?.toLowerCase() || null;
  if (beneficiaryId) await checkBeneficiaryFillsWire(db, beneficiaryId, v);
  return db.tx(async (q) =>
    linkBeneficiary(
      q,
      await createDraft(q, actor, {
        id: v.idempotencyKey.toLowerCase(),
        kind: "wire",
        fromAccount: v.originator_account_number.trim(),
        amountCents: v.amount,
        counterparty: v.beneficiary_name.trim(),
        request: wireBody(v),
      }),
      beneficiaryId,
    ),
  );
}

export async function changeWireDraft(
  db: DashboardDb,
  actor: Actor,
  id: string,
  version: number,
  v: WireDraftValues,
) {
  const beneficiaryId = v.beneficiaryId?.toLowerCase() || null;
  if (beneficiaryId) await checkBeneficiaryFillsWire(db, beneficiaryId, v);
  return db.tx(async (q) =>
    linkBeneficiary(
      q,
      await updateDraft(q, actor, id, version, {
        fromAccount: v.originator_account_number.trim(),
        amountCents: v.amount,
        counterparty: v.beneficiary_name.trim(),
        request: wireBody(v),
      }),
      beneficiaryId,
    ),
  );
}
