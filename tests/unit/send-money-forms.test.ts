// The browser's zod/mini form schemas (lib/forms/send-money.ts) and the route handlers' schemas
// (lib/dashboard-api/, built on the contract) take the same limits from one table: on any text
// typed into any one field, both accept or both refuse, with the same messages on the same fields.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  CreateBeneficiaryRequest,
  CreateSenAccountRequest,
  PaymentsQuery,
  SenTransferRequest,
  WireDraftRequest,
} from "../../lib/dashboard-api/index.ts";
import { PaymentsFilterForm } from "../../lib/forms/payments-filter.ts";
import { CreateSenAccountForm } from "../../lib/forms/sen-account.ts";
import { SenTransferForm } from "../../lib/forms/sen-transfer.ts";
import { BeneficiaryForm, WireDraftForm } from "../../lib/forms/wire.ts";

interface Parser {
  safeParse(v: unknown): {
    success: boolean;
    data?: unknown;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
}

function verdict(schema: Parser, input: unknown) {
  const r = schema.safeParse(input);
  if (r.success) return { ok: true as const, data: r.data };
  // The first message on each field is the one a form shows.
  const firstByField = new Map<string, string>();
  for (const i of r.error?.issues ?? []) {
    const path = i.path.map(String).join(".");
    if (!firstByField.has(path)) firstByField.set(path, i.message);
  }
  return { ok: false as const, fields: Object.fromEntries([...firstByField].sort()) };
}

const KEY = "0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa";

/** Text a person might type or paste, good and bad: digits, amounts, long lines, hidden and control characters. */
const typed = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.stringMatching(/^[0-9]{0,24}$/),
  fc.stringMatching(/^\$?[0-9,]{0,14}(\.[0-9]{0,4})?$/),
  fc.stringMatching(/^[A-Za-z0-9 ]{0,160}$/),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1e3",
    "ABA",
    "aba",
    "SWIFT",
    "swift",
    "XYZ",
    "021000021",
    "021000022",
    "DEUTDEFF",
    "DEUTDEFF500",
    "deutdeff",
    "a\u202Eb",
    "\uFEFFx",
    "x\u0000",
    "x\u0085",
    "2026-01-01",
    "2026-02-30",
    "2026-13-01",
    "0000-00-00",
    "999999999",
    "1000000000",
    "99999999999.99",
    "999,999,999,999.99",
    "12,50",
    ".5",
    "20.",
    "1 250.5",
  ),
);

function sameOnEveryField(classic: Parser, mini: Parser, base: Record<string, unknown>, nested?: string) {
  const fields = Object.keys(nested ? (base[nested] as Record<string, unknown>) : base).filter(
    (f) => f !== "idempotencyKey",
  );
  expect(verdict(classic, base)).toEqual(verdict(mini, base));
  fc.assert(
    fc.property(fc.constantFrom(...fields), typed, (field, value) => {
      const input = nested
        ? { ...base, [nested]: { ...(base[nested] as Record<string, unknown>), [field]: value } }
        : { ...base, [field]: value };
      expect(verdict(mini, input)).toEqual(verdict(classic, input));
    }),
    { numRuns: 1000 },
  );
}

const wireTemplate = {
  beneficiary_name: "ACME GMBH",
  beneficiary_account_number: "DE89370400440532013000",
  beneficiary_address1: "1 MAIN ST",
  beneficiary_address2: "",
  beneficiary_address3: "",
  beneficiary_bank_type: "ABA",
  beneficiary_bank_routing_id: "021000021",
  beneficiary_bank_name: "",
  beneficiary_bank_address1: "",
  beneficiary_bank_address2: "",
  beneficiary_bank_address3: "",
  receiving_bank_routing_id: "",
  receiving_bank_name: "",
  receiving_bank_address1: "",
  receiving_bank_address2: "",
  receiving_bank_address3: "",
  intermediary_bank_type: "SWIFT",
  intermediary_bank_routing_id: "DEUTDEFF",
  intermediary_bank_account_number: "",
  intermediary_bank_name: "",
  intermediary_bank_address1: "",
  intermediary_bank_address2: "",
  intermediary_bank_address3: "",
};

describe("browser form schemas agree with the route handlers' schemas", () => {
  vi.setConfig({ testTimeout: 120_000 });
  it("SEN transfer", () => {
    sameOnEveryField(SenTransferRequest, SenTransferForm, {
      idempotencyKey: KEY,
      AccountNumberFrom: "1000000001",
      AccountNumberTo: "1000000002",
      Amount: "1,250.00",
      SerialNumber1: "",
      SerialNumber2: "",
      ...Object.fromEntries(
        [2, 3, 4, 5, 6, 7].flatMap((n) => [
          [`AccountFromDescription${n}`, ""],
          [`AccountToDescription${n}`, n === 2 ? "RENT" : ""],
        ]),
      ),
    });
  });

  it("wire draft", () => {
    sameOnEveryField(WireDraftRequest, WireDraftForm, {
      idempotencyKey: KEY,
      beneficiaryId: "",
      originator_account_number: "1000000001",
      amount: "25,000.00",
      originator_to_beneficiary_info: "",
      ...wireTemplate,
    });
  });

  it("saved beneficiary", () => {
    sameOnEveryField(
      CreateBeneficiaryRequest,
      BeneficiaryForm,
      { label: "ACME", fields: wireTemplate },
      "fields",
    );
    sameOnEveryField(CreateBeneficiaryRequest, BeneficiaryForm, { label: "ACME", fields: wireTemplate });
  });

  it("new SEN account", () => {
    sameOnEveryField(CreateSenAccountRequest, CreateSenAccountForm, {
      ExpectedBalance: "25,000",
      ExpectedIncomingAmtMonth: "1000",
      ExpectedOutgoingAmtMonth: "1000",
      AltTitleLine1: "",
      AltTitleLine2: "",
      AltTitleLine3: "",
      AltTitleLine4: "",
    });
  });

  it("payments filters", () => {
    const base = {
      account: "1000000001",
      from: "2026-01-01",
      to: "2026-01-31",
      direction: "all",
      status: "all",
      sort: "date-desc",
      page: "1",
      pageSize: "25",
    };
    // Success and the fields refused agree (the route handler also reads numbers out of the text).
    const okOf = (s: Parser, v: unknown) => {
      const r = verdict(s, v);
      return r.ok ? true : r.fields;
    };
    expect(okOf(PaymentsQuery, base)).toEqual(okOf(PaymentsFilterForm, base));
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(base)), typed, (field, value) => {
        const input = { ...base, [field]: value };
        expect(okOf(PaymentsFilterForm, input)).toEqual(okOf(PaymentsQuery, input));
      }),
      { numRuns: 1000 },
    );
  });
});
