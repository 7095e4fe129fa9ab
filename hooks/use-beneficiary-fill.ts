"use client";
// A saved beneficiary fills the wire form (approved ones only), and names the wire only while the
// account and bank details are as saved: a change to any of them makes it a wire to someone new.
import type { ZodForm } from "@/hooks/use-zod-form.ts";
import type { Beneficiary, WireDraftInput, WireDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { PAYEE_DESTINATION_FIELDS, TEMPLATE_FIELDS } from "@/lib/form-rules/send-money-fields.ts";

export function useBeneficiaryFill(form: ZodForm<typeof WireDraftRequest>, templates: Beneficiary[]) {
  /** Fills the fields from the approved beneficiary `id` and names it on the wire. */
  function fill(id: string) {
    const b = templates.find((x) => x.id === id && x.status === "approved");
    if (!b) return;
    for (const f of TEMPLATE_FIELDS)
      form.setValue(f as keyof WireDraftInput, (b.fields[f] ?? "") as never, {
        shouldValidate: !!b.fields[f],
      });
    form.setValue("beneficiaryId", b.id);
  }

  /** Drops the beneficiary's name from the wire when its account or bank details were changed. */
  function keepIfUnchanged() {
    const v = form.getValues() as Record<string, string | undefined>;
    const b = templates.find((x) => x.id === v.beneficiaryId);
    if (!b || PAYEE_DESTINATION_FIELDS.some((f) => (v[f] ?? "") !== (b.fields[f] ?? "")))
      form.setValue("beneficiaryId", "");
  }

  return { fill, keepIfUnchanged };
}
