// The wire form's values: empty, or a stored draft's (or wire series') request read back into the
// form (wire names, the amount in dollars as text).
import type { Draft, WireDraftInput } from "../dashboard-api/wires.ts";
import { TEMPLATE_FIELDS } from "./send-money-fields.ts";

export const EMPTY_WIRE = {
  idempotencyKey: "",
  beneficiaryId: "",
  originator_account_number: "",
  amount: "",
  originator_to_beneficiary_info: "",
  ...Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, ""])),
} as WireDraftInput;

/**
 * Form values from a stored wire request (wire names, the amount in dollars) under the form key
 * `id`, naming the saved beneficiary that filled it, if one did.
 */
export function wireValuesOfRequest(
  request: Record<string, unknown>,
  id: string,
  beneficiaryId: string | null | undefined,
): WireDraftInput {
  const text = (k: string) => (request[k] === undefined || request[k] === null ? "" : String(request[k]));
  return {
    ...EMPTY_WIRE,
    ...Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, text(f)])),
    idempotencyKey: id,
    beneficiaryId: beneficiaryId ?? "",
    originator_account_number: text("originator_account_number"),
    amount: text("amount"),
    originator_to_beneficiary_info: text("originator_to_beneficiary_info"),
  } as WireDraftInput;
}

/** Form values from a stored draft's request; its id is the form's key, so a correction acts once. */
export function wireValuesOf(d: Draft): WireDraftInput {
  return wireValuesOfRequest(d.request, d.id, d.beneficiaryId);
}
