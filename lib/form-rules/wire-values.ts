// The wire form's values: empty, or a stored draft's request read back into the form (wire names,
// the amount in dollars as text).
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

/** Form values from a stored draft's request; its id is the form's key, so a correction acts once. */
export function wireValuesOf(d: Draft): WireDraftInput {
  const r = d.request as Record<string, unknown>;
  const text = (k: string) => (r[k] === undefined || r[k] === null ? "" : String(r[k]));
  return {
    ...EMPTY_WIRE,
    ...Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, text(f)])),
    idempotencyKey: d.id,
    beneficiaryId: d.beneficiaryId ?? "",
    originator_account_number: text("originator_account_number"),
    amount: text("amount"),
    originator_to_beneficiary_info: text("originator_to_beneficiary_info"),
  } as WireDraftInput;
}
