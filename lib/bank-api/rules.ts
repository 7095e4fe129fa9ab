// The request fields people type, as plain data: each field's kind and limit, and the checks
// behind them, without zod. The contract's schemas (fields.ts and the request schemas) are built
// from these tables, and a page draws its fields (lengths, names) from them before the schema that
// checks them loads, so a limit is written once.

import { ibanProblem } from "./iban.ts";
import { type Cents, dollarsToCents } from "./money.ts";

export const NO_CONTROL = "must not contain control characters";
export const NO_HIDDEN_TEXT =
  "must not contain invisible or look-alike characters (such as bidirectional controls, fillers or special spaces)";
export const ABA_MESSAGE = "must be a 9-digit ABA routing number with a valid check digit";
export const BIC_MESSAGE = "must be a SWIFT BIC (8 or 11 characters)";
export const BANK_TYPE_MESSAGE = "must be ABA or SWIFT";
export const BANK_TYPES = ["ABA", "SWIFT"] as const;
export const ACCOUNT_NUMBER_MESSAGE =
  "must be digits 0-9 alone, or an IBAN in capital letters with valid check digits (ISO 13616)";
export const ROUTING_ID_MESSAGE =
  "must be digits 0-9 alone (an ABA number or the bank's account number), or a SWIFT BIC in capital letters";

/** C0 controls and DEL: no field of the API carries them, and a NUL cannot be stored at all. */
export function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Characters that show as nothing, as a plain space, or as a mark over the letter before: they
 * make a name or an account number read differently from what it holds, so an approver could be
 * shown one payee and pay another, or two payees that read alike could both be saved. One rule for
 * the bank and the dashboard: invisible format characters (Unicode Cf: bidirectional controls,
 * zero-width characters, the soft hyphen, the byte-order mark); every default-ignorable code point
 * (Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner U+034F, variation
 * selectors); the braille blank U+2800; every space but the plain one (no-break U+00A0, U+3000,
 * the other widths); the line and paragraph separators; and combining overlays and enclosing
 * marks (a stroke or a circle drawn over a letter).
 */
const HIDDEN_TEXT =
  /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Me}\u2028\u2029\u2800\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
/** Combining overlays (a stroke or slash drawn through the letter before), by code point. */
const OVERLAYS = new Set([
  0x0334, 0x0335, 0x0336, 0x0337, 0x0338, 0x20d2, 0x20d3, 0x20d8, 0x20d9, 0x20da, 0x20e5, 0x20e6, 0x20ea,
  0x20eb,
]);
export const hasHiddenText = (s: string): boolean => {
  if (HIDDEN_TEXT.test(s)) return true;
  for (const ch of s) if (OVERLAYS.has(ch.codePointAt(0) as number)) return true;
  return false;
};

/**
 * A wire's account number: digits alone, or an IBAN whose ISO 13616 check digits hold. A letter
 * appears only where an IBAN's checksum vouches for it, so what an approver reads is what the bank
 * is sent: no space, hyphen or dot, no full-width or other script's digit, no letter from another
 * alphabet, and no O for a 0 or I for a 1 in a number of digits.
 */
const DIGITS = /^\d*$/;
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;
export const isWireAccountNumber = (s: string): boolean =>
  DIGITS.test(s) || (IBAN_SHAPE.test(s) && ibanProblem(s) === null);
/** A wire's bank routing id (11 characters at most): digits (an ABA number, or the bank's account number), or a BIC. */
export const isWireRoutingId = (s: string): boolean => DIGITS.test(s) || isSwiftBic(s);
export const AccountNumberJsonSchema = {
  pattern: `^(\\d*|${IBAN_SHAPE.source.slice(1, -1)})$`,
  "x-iban-check-digits": true,
} as const;

/** No control characters of any Unicode block: Fedwire carries printable text. */
export const noControlCharacters = (s: string) => !/\p{Cc}/u.test(s);

/** ABA routing number: nine digits with a valid check digit (3-7-1 weights). */
export function isAbaRoutingNumber(s: string): boolean {
  if (!/^\d{9}$/.test(s)) return false;
  const d = [...s].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0;
}

/** SWIFT BIC: 4 letters bank, 2 letters country, 2 location, optional 3 branch. */
const SWIFT_BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
export function isSwiftBic(s: string): boolean {
  return SWIFT_BIC.test(s);
}

/** The published form of an ABA number: nine digits, and an extension keyword for the check digit. */
export const AbaJsonSchema = { pattern: "^\\d{9}$", "x-aba-check-digit": true } as const;
export const SwiftBicJsonSchema = { pattern: SWIFT_BIC.source } as const;
export const RoutingIdJsonSchema = { pattern: `^(\\d*|${SWIFT_BIC.source.slice(1, -1)})$` } as const;

/**
 * One typed field. `text`: at most `max` characters, no control or hidden characters
 * (`required`: trimmed and not empty; `fedwire`: no Unicode control either; `aba`: an ABA routing
 * number; `code`: "account", digits alone or an IBAN; "routing", digits alone or a BIC). `amount`:
 * positive dollars, two decimals, at most `maxLength` characters as text.
 * `wholeDollars`: whole dollars in a range. `bankType`: ABA or SWIFT, any case.
 */
export type FieldRule =
  | { kind: "text"; max: number; required?: true; fedwire?: true; aba?: true; code?: "account" | "routing" }
  | { kind: "amount"; maxLength: number }
  | { kind: "wholeDollars"; min: number; max: number }
  | { kind: "bankType" };

export type FieldTable = Record<string, FieldRule>;

/** A check of a text field: what its value must pass, and the words when it does not. */
export type TextCheck = readonly [ok: (s: string) => boolean, message: string];

/** The checks every text of the contract gets (its schemas in fields.ts), and the few a rule adds. */
export const TEXT_CHECKS = {
  noControl: [(s) => !hasControl(s), NO_CONTROL],
  noHiddenText: [(s) => !hasHiddenText(s), NO_HIDDEN_TEXT],
  fedwire: [noControlCharacters, NO_CONTROL],
  aba: [isAbaRoutingNumber, ABA_MESSAGE],
  account: [isWireAccountNumber, ACCOUNT_NUMBER_MESSAGE],
  routing: [isWireRoutingId, ROUTING_ID_MESSAGE],
} as const satisfies Record<string, TextCheck>;

/** What a text rule checks beyond its length and the checks of every text: Fedwire text, an ABA number. */
export const ruleChecks = (rule: Extract<FieldRule, { kind: "text" }>): TextCheck[] => [
  ...(rule.fedwire ? [TEXT_CHECKS.fedwire] : []),
  ...(rule.aba ? [TEXT_CHECKS.aba] : []),
  ...(rule.code ? [TEXT_CHECKS[rule.code]] : []),
];

/** An amount rule applied to a dollar number: its integer cents, or what is wrong with it. */
export function amountCents(n: number, maxLength: number): { cents: Cents } | { problem: string } {
  const cents = dollarsToCents(n);
  if (cents === null) return { problem: "must have at most two decimal places" };
  if (String(n).length > maxLength) return { problem: `must be at most ${maxLength} characters` };
  if (cents <= 0) return { problem: "must be greater than zero" };
  return { cents };
}

const text = (max: number) => ({ kind: "text", max }) as const;
const requiredText = (max: number) => ({ kind: "text", max, required: true }) as const;
const fedwire = (max: number) => ({ kind: "text", max, fedwire: true }) as const;
const fedwireRequired = (max: number) => ({ kind: "text", max, fedwire: true, required: true }) as const;
const bankType = { kind: "bankType" } as const;
/** A wire's account number (digits, or an IBAN) or bank routing id (digits, a BIC or an IBAN). */
const code = (max: number, kind: "account" | "routing") =>
  ({ kind: "text", max, fedwire: true, code: kind }) as const;
const codeRequired = (max: number) =>
  ({ kind: "text", max, fedwire: true, required: true, code: "account" }) as const;

/** POST /v2/account/transfersen, the fields a person types (SequenceNumber is the client's). */
export const SEN_TRANSFER_FIELDS = {
  AccountNumberFrom: requiredText(20),
  AccountNumberTo: requiredText(20),
  Amount: { kind: "amount", maxLength: 13 },
  SerialNumber1: text(15),
  SerialNumber2: text(15),
  AccountFromDescription2: text(40),
  AccountFromDescription3: text(40),
  AccountFromDescription4: text(40),
  AccountFromDescription5: text(40),
  AccountFromDescription6: text(40),
  AccountFromDescription7: text(40),
  AccountToDescription2: text(40),
  AccountToDescription3: text(40),
  AccountToDescription4: text(40),
  AccountToDescription5: text(40),
  AccountToDescription6: text(40),
  AccountToDescription7: text(40),
} as const satisfies FieldTable;

type SenTransferField = keyof typeof SEN_TRANSFER_FIELDS;
const senFieldsNamed = <P extends string>(prefix: P) =>
  (Object.keys(SEN_TRANSFER_FIELDS) as SenTransferField[]).filter((f) => f.startsWith(prefix)) as Extract<
    SenTransferField,
    `${P}${string}`
  >[];
/** The description lines of a SEN transfer, in order: the source account's, then the destination's. */
export const FROM_DESCRIPTION_FIELDS = senFieldsNamed("AccountFromDescription");
export const TO_DESCRIPTION_FIELDS = senFieldsNamed("AccountToDescription");

export const EXPECTED_AMOUNT_MAX = 999_999_999;
const expected = { kind: "wholeDollars", min: 1, max: EXPECTED_AMOUNT_MAX } as const;

/** POST /v2/account/createsen, the fields a person types. */
export const CREATE_SEN_FIELDS = {
  ExpectedBalance: expected,
  ExpectedIncomingAmtMonth: expected,
  ExpectedOutgoingAmtMonth: expected,
  AltTitleLine1: text(40),
  AltTitleLine2: text(40),
  AltTitleLine3: text(40),
  AltTitleLine4: text(40),
} as const satisfies FieldTable;

/** POST /v2/payment (initiate an outgoing wire). */
export const INITIATE_PAYMENT_FIELDS = {
  originator_account_number: fedwireRequired(20),
  amount: { kind: "amount", maxLength: 13 },
  receiving_bank_routing_id: { kind: "text", max: 9, fedwire: true, aba: true },
  receiving_bank_name: fedwire(35),
  receiving_bank_address1: fedwire(35),
  receiving_bank_address2: fedwire(35),
  receiving_bank_address3: fedwire(35),
  intermediary_bank_type: bankType,
  intermediary_bank_routing_id: code(11, "routing"),
  intermediary_bank_account_number: code(35, "account"),
  intermediary_bank_name: fedwire(35),
  intermediary_bank_address1: fedwire(35),
  intermediary_bank_address2: fedwire(35),
  intermediary_bank_address3: fedwire(35),
  beneficiary_bank_type: bankType,
  beneficiary_bank_routing_id: code(11, "routing"),
  beneficiary_bank_name: fedwire(35),
  beneficiary_bank_address1: fedwire(35),
  beneficiary_bank_address2: fedwire(35),
  beneficiary_bank_address3: fedwire(35),
  beneficiary_name: fedwireRequired(35),
  beneficiary_account_number: codeRequired(35),
  beneficiary_address1: fedwireRequired(35),
  beneficiary_address2: fedwire(35),
  beneficiary_address3: fedwire(35),
  originator_to_beneficiary_info: fedwire(140),
} as const satisfies FieldTable;

/** The routing id fields checked against the routing method named beside them. */
export const ROUTING_PAIRS = [
  ["intermediary_bank_type", "intermediary_bank_routing_id"],
  ["beneficiary_bank_type", "beneficiary_bank_routing_id"],
] as const;

/**
 * The routing-id rule as JSON Schema: the id's shape follows the method named beside it (the
 * canonical upper-case method; a lower-case one is tolerated and checked the same way).
 */
export const RoutingJsonSchema = {
  allOf: ROUTING_PAIRS.flatMap(([typeField, idField]) =>
    (
      [
        ["ABA", AbaJsonSchema],
        ["SWIFT", SwiftBicJsonSchema],
      ] as const
    ).map(([method, shape]) => ({
      if: { properties: { [typeField]: { const: method } }, required: [typeField, idField] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited
      then: { properties: { [idField]: shape } },
    })),
  ),
};

/** What is wrong with a routing id given its method, or null. */
export function routingProblem(type: string | undefined, id: string | undefined): string | null {
  if (!id) return null;
  if (type === "ABA" && !isAbaRoutingNumber(id)) return ABA_MESSAGE;
  if (type === "SWIFT" && !isSwiftBic(id)) return BIC_MESSAGE;
  return null;
}

export const PAYMENT_STATUSES = ["Pre-Approval", "In-Progress", "Canceled", "Complete"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The longest range `GET /v2/payment` answers for, in days. */
export const PAYMENT_WINDOW_DAYS = 32;
