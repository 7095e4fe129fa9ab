// International details read as a person checks them: IBANs by ISO 13616 (length by country,
// mod-97 check digits) with their country named, BICs with theirs, and field errors that say
// what to do in the field's own words.
import { describe, expect, it } from "vitest";
import { bicCountry, ibanCountry, ibanProblem, looksLikeIban } from "../../lib/bank-api/iban.ts";
import { WireDraftRequest } from "../../lib/dashboard-api/wires.ts";
import { TEMPLATE_FIELDS } from "../../lib/form-rules/send-money-fields.ts";
import { fieldErrorText, labelAsNoun } from "../../lib/format/field-errors.ts";

describe("IBANs", () => {
  it("accepts valid ones with or without the spaces people type, and names their country", () => {
    for (const iban of [
      "DE89 3704 0044 0532 0130 00",
      "GB82WEST12345698765432",
      "fr1420041010050500013m02606",
    ])
      expect(ibanProblem(iban), iban).toBeNull();
    expect(ibanCountry("DE89 3704 0044 0532 0130 00")).toBe("Germany (DE)");
    expect(ibanCountry("GB82WEST12345698765432")).toBe("United Kingdom (GB)");
  });

  it("refuses a wrong check digit, a wrong length and a country without IBANs", () => {
    expect(ibanProblem("DE89370400440532013001")).toMatch(/check digits do not match/);
    expect(ibanProblem("DE88370400440532013000")).toMatch(/check digits do not match/);
    expect(ibanProblem("GB82WEST1234569876543")).toBe(
      "must be a valid IBAN: a United Kingdom IBAN has 22 characters, not 21",
    );
    expect(ibanProblem("XX89370400440532013000")).toMatch(/XX is not a country that uses IBANs/);
  });

  it("leaves account numbers that do not look like an IBAN alone", () => {
    for (const n of ["987654321", "1000000001", "ACCT-42", "12 34"]) {
      expect(looksLikeIban(n)).toBe(false);
      expect(ibanProblem(n)).toBeNull();
    }
  });

  it("names a BIC's country, and none for a malformed BIC", () => {
    expect(bicCountry("DEUTDEFF500")).toBe("Germany (DE)");
    expect(bicCountry("BOFAUS3N")).toBe("United States (US)");
    expect(bicCountry("DEUT")).toBeNull();
  });

  it("the wire form's schema (the route handler's) refuses a bad IBAN on the field", () => {
    const r = WireDraftRequest.safeParse({
      ...Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, ""])),
      originator_to_beneficiary_info: "",
      idempotencyKey: "00000000-0000-4000-8000-000000000000",
      originator_account_number: "1000000001",
      amount: "10.00",
      beneficiary_name: "Commerzbank Filiale Frankfurt am Main",
      beneficiary_account_number: "DE89370400440532013001",
      beneficiary_address1: "Hauptstrasse 1",
      receiving_bank_routing_id: "021000021",
      receiving_bank_name: "Receiving Bank NA",
      beneficiary_bank_type: "",
      beneficiary_bank_routing_id: "",
    });
    expect(r.success).toBe(false);
    // Both at once: the IBAN is checked on its field, not only once every other field is right.
    expect(r.error?.issues.map((i) => i.path.join(".")).sort()).toEqual([
      "beneficiary_account_number",
      "beneficiary_name",
    ]);
  });
});

describe("field errors in words", () => {
  it("says what to do, in sentence case", () => {
    expect(fieldErrorText("is required", "Amount ($)")).toBe("Enter an amount");
    expect(fieldErrorText("is required", "Account", "choose")).toBe("Choose an account");
    expect(fieldErrorText("is required: say why the draft is rejected", "Reason")).toBe(
      "Say why the draft is rejected",
    );
    expect(fieldErrorText("must be at most 35 characters", "Name")).toBe("Shorten to 35 characters or fewer");
    expect(fieldErrorText("must be a 9-digit ABA routing number with a valid check digit", "x")).toBe(
      "Enter a 9-digit ABA routing number with a valid check digit",
    );
    expect(fieldErrorText("must not be before the start date", "To")).toBe(
      "Must not be before the start date",
    );
    expect(fieldErrorText('"x" is not an e-mail address', "E-mail")).toBe('"x" is not an e-mail address');
    expect(fieldErrorText("Already a sentence.", "E-mail")).toBe("Already a sentence.");
  });

  it("keeps acronyms in a label", () => {
    expect(labelAsNoun("ABA routing number")).toBe("an ABA routing number");
    expect(labelAsNoun("Beneficiary name")).toBe("a beneficiary name");
    expect(fieldErrorText("is required", "From account", "choose")).toBe("Choose an account to send from");
  });
});
