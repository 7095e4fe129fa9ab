// The forms a person types free text into refuse invisible formatting characters in the browser,
// under the field's name, with the bank's words (lib/bank-api/rules.ts), before anything is sent.
import { describe, expect, it } from "vitest";
import { NO_HIDDEN_TEXT } from "../../lib/bank-api/rules.ts";
import { NewUserBody } from "../../lib/dashboard-api/admin.ts";
import { AlertRuleFormSchema, RegisterWebhookSchema } from "../../lib/dashboard-api/alerts.ts";
import { CreateBeneficiaryRequest, RejectDraftRequest } from "../../lib/dashboard-api/wires.ts";

type Parser = {
  safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
};

const FORMS: [string, Parser, Record<string, unknown>, string][] = [
  ["new user", NewUserBody, { email: "a@example.com", name: "Ann", role: "viewer" }, "name"],
  ["saved beneficiary", CreateBeneficiaryRequest, { label: "Acme", fields: {} }, "label"],
  ["reject a draft", RejectDraftRequest.pick({ reason: true }), { reason: "Wrong account" }, "reason"],
  [
    "new webhook",
    RegisterWebhookSchema,
    { accountNumber: "1000000001", description: "ERP", url: "https://erp.example/hook", emails: "" },
    "description",
  ],
  ["balance alert", AlertRuleFormSchema, { below: "5.00", emails: "ops@example.com" }, "emails"],
];

describe.each(FORMS)("the %s form", (_, schema, good, field) => {
  const hidden = ["\u202e", "\u2066", "\u200b", "\u00ad", "\ufeff", "\u2028"];
  it.each(hidden.map((c) => [c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0"), c]))(
    "refuses U+%s in its field",
    (_, ch) => {
      for (const value of [`${good[field]}${ch}x`, `${ch}${good[field]}`]) {
        const r = schema.safeParse({ ...good, [field]: value });
        expect(r.success).toBe(false);
        expect(r.error?.issues).toContainEqual(
          expect.objectContaining({ path: [field], message: NO_HIDDEN_TEXT }),
        );
      }
    },
  );
});
