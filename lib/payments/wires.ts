// Outgoing wires start as drafts: the form's values become the initiate-payment body the bank
// will be sent on release, checked by the contract's schema before anything is saved.
import "server-only";
import type { Actor } from "../auth/audit.ts";
import { centsToDollars } from "../bank-api/money.ts";
import { initiatePaymentRequest } from "../bank-api/payments.ts";
import { type WireDraftValues, withoutBlanks } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import { createDraft, updateDraft } from "./drafts.ts";

export function wireBody(v: WireDraftValues): Record<string, unknown> {
  const { idempotencyKey: _key, amount, ...rest } = v;
  const body = withoutBlanks({ ...rest, amount: centsToDollars(amount) });
  // The contract's own check of the body as it will travel; the form schema already ran it.
  initiatePaymentRequest.parse(body);
  return body;
}

export function prepareWireDraft(db: Queryable, actor: Actor, v: WireDraftValues) {
  return createDraft(db, actor, {
    id: v.idempotencyKey.toLowerCase(),
    kind: "wire",
    fromAccount: v.originator_account_number.trim(),
    amountCents: v.amount,
    counterparty: v.beneficiary_name.trim(),
    request: wireBody(v),
  });
}

export function changeWireDraft(
  db: Queryable,
  actor: Actor,
  id: string,
  version: number,
  v: WireDraftValues,
) {
  return updateDraft(db, actor, id, version, {
    fromAccount: v.originator_account_number.trim(),
    amountCents: v.amount,
    counterparty: v.beneficiary_name.trim(),
    request: wireBody(v),
  });
}
