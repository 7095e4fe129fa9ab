// The send-money forms parse with the route handlers' own schemas (lib/dashboard-api/), which the
// browser loads on first use. Whatever a form accepts becomes a body the bank's contract accepts,
// with the same cents; whatever it refuses in a field the bank has, the bank refuses in that
// field with the same words: on any text typed into any one field.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { createSenRequest } from "../../lib/bank-api/accounts.ts";
import { initiatePaymentRequest } from "../../lib/bank-api/payments.ts";
import { transferSenRequest } from "../../lib/bank-api/transfers.ts";
import {
  CreateBeneficiaryRequest,
  CreateSenAccountRequest,
  PaymentsQuery,
  SenTransferRequest,
  WireDraftRequest,
  withoutBlanks,
} from "../../lib/dashboard-api/index.ts";
import { senTransferBody } from "../../lib/payments/sen.ts";
import { wireBody } from "../../lib/payments/wires.ts";

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

/**
 * For one form: its schema (`form`), how the route handler makes the bank's body of what it
 * accepted (`toBank`), and the bank's contract schema (`bank`). On any text in any one field: an
 * accepted form makes an accepted body; a field the bank also has, refused by the form for what
 * was typed (not for being left empty, which the bank reads as absent), is refused by the bank
 * with the same first message.
 */
function agreesWithTheBank(
  form: Parser,
  toBank: (data: never) => Record<string, unknown>,
  bank: Parser & { shape: Record<string, unknown> },
  base: Record<string, unknown>,
  nested?: string,
) {
  const fieldsOf = (v: Record<string, unknown>) => (nested ? (v[nested] as Record<string, unknown>) : v);
  const fields = Object.keys(fieldsOf(base)).filter((f) => f !== "idempotencyKey");
  const accepted = verdict(form, base);
  expect(accepted.ok).toBe(true);
  const bankBase = toBank(accepted.data as never);
  expect(verdict(bank, bankBase).ok).toBe(true);
  fc.assert(
    fc.property(fc.constantFrom(...fields), typed, (field, value) => {
      const input = nested
        ? { ...base, [nested]: { ...fieldsOf(base), [field]: value } }
        : { ...base, [field]: value };
      const v = verdict(form, input);
      if (v.ok) {
        const body = toBank(v.data as never);
        expect(verdict(bank, body)).toMatchObject({ ok: true });
        return;
      }
      const path = nested ? `${nested}.${field}` : field;
      const message = v.fields[path];
      // Compared where both take text: the bank's amounts are numbers, not what a person types.
      if (message === undefined || value.trim() === "" || !(field in bank.shape)) return;
      if (typeof bankBase[field] === "number") return;
      if (message === "must differ from the account the money comes from") return;
      const refused = verdict(bank, withoutBlanks({ ...bankBase, [field]: value }));
      expect(refused.ok ? undefined : refused.fields[field], `${field}: ${JSON.stringify(value)}`).toBe(
        message,
      );
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

describe("the send-money forms agree with the bank's contract", () => {
  vi.setConfig({ testTimeout: 120_000 });
  it("SEN transfer", () => {
    agreesWithTheBank(SenTransferRequest, senTransferBody, transferSenRequest, {
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
    agreesWithTheBank(WireDraftRequest, wireBody, initiatePaymentRequest, {
      idempotencyKey: KEY,
      beneficiaryId: "",
      originator_account_number: "1000000001",
      amount: "25,000.00",
      originator_to_beneficiary_info: "",
      ...wireTemplate,
    });
  });

  it("saved beneficiary", () => {
    // A saved beneficiary is a wire's template: the bank judges it inside a wire.
    const asWire = (v: { fields: Record<string, unknown> }) =>
      withoutBlanks({ ...v.fields, originator_account_number: "1000000001", amount: 1 });
    agreesWithTheBank(
      CreateBeneficiaryRequest,
      asWire,
      initiatePaymentRequest,
      { label: "ACME", fields: wireTemplate },
      "fields",
    );
  });

  it("new SEN account", () => {
    agreesWithTheBank(CreateSenAccountRequest, withoutBlanks, createSenRequest, {
      ExpectedBalance: "25,000",
      ExpectedIncomingAmtMonth: "1000",
      ExpectedOutgoingAmtMonth: "1000",
      AltTitleLine1: "",
      AltTitleLine2: "",
      AltTitleLine3: "",
      AltTitleLine4: "",
    });
  });

  it("payments filters: the form holds text, the route handler reads the same text as numbers", () => {
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
    expect(verdict(PaymentsQuery, base)).toMatchObject({ ok: true, data: { page: 1, pageSize: 25 } });
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(base)), typed, (field, value) => {
        const r = verdict(PaymentsQuery, { ...base, [field]: value });
        const read = r.ok && (r.data as Record<string, unknown>)[field];
        if (r.ok)
          expect(typeof read === "number" ? read : String(read)).toBe(
            typeof read === "number" ? Number(value) : value,
          );
        // Refused on that field alone, but for the range, which is the end day's refusal.
        else expect(Object.keys(r.fields).filter((f) => f !== "to")).toEqual(field === "to" ? [] : [field]);
      }),
      { numRuns: 1000 },
    );
  });
});
