// The beneficiary's and its bank's fields of an outgoing wire, shared by the wire form and the
// saved-beneficiaries page (whose form holds them under a prefix, "fields."). Each field's
// length limit is the contract's (lib/bank-api/rules.ts).
import type { ComponentProps } from "react";
import { useWatch } from "react-hook-form";
import { CountedTextField, MoreFields, SelectField, type TextField } from "@/components/form/form.tsx";
import { bicCountry, IBAN_FIELDS, ibanCountry, ibanProblem } from "@/lib/bank-api/iban.ts";
import { INITIATE_PAYMENT_FIELDS } from "@/lib/bank-api/rules.ts";

const IBAN_ACCOUNT_FIELDS = new Set<string>(IBAN_FIELDS);

type WireTextName = {
  [K in keyof typeof INITIATE_PAYMENT_FIELDS]: (typeof INITIATE_PAYMENT_FIELDS)[K] extends { kind: "text" }
    ? K
    : never;
}[keyof typeof INITIATE_PAYMENT_FIELDS];

/** What the form can say about a value as it is typed: an IBAN's or a BIC's country. */
function countryNote(field: WireTextName, value: string): string | null {
  if (IBAN_ACCOUNT_FIELDS.has(field)) {
    const country = ibanCountry(value);
    if (!country) return null;
    return ibanProblem(value)
      ? `Looks like an IBAN of ${country}; its check digits are checked when you continue.`
      : `IBAN of ${country}: check digits valid.`;
  }
  if (field.endsWith("_bank_routing_id")) {
    const country = bicCountry(value);
    return country ? `BIC of a bank in ${country}.` : null;
  }
  return null;
}

/**
 * One text field of the initiate-payment request, limited as the contract limits it. Nothing is
 * cut silently: the count shows as one types, and a longer text is an error that says so.
 */
function WireText({
  prefix,
  field,
  hint,
  ...props
}: { prefix: string; field: WireTextName } & Omit<
  ComponentProps<typeof TextField>,
  "name" | "maxLength" | "max"
>) {
  const name = `${prefix}${field}`;
  const note = countryNote(field, String(useWatch({ name }) ?? ""));
  return (
    <CountedTextField
      name={name}
      max={INITIATE_PAYMENT_FIELDS[field].max}
      hint={
        hint || note ? (
          <>
            {hint ? <span className="block">{hint}</span> : null}
            {note ? <span className="block text-slate-700">{note}</span> : null}
          </>
        ) : undefined
      }
      {...props}
    />
  );
}

/** How a bank is identified (ABA or SWIFT), then its routing number or BIC. */
function BankIdFields({
  prefix,
  bank,
  title,
  none,
  hint,
}: {
  prefix: string;
  bank: "beneficiary" | "intermediary";
  title: string;
  none: string;
  hint?: string;
}) {
  return (
    <>
      <SelectField name={`${prefix}${bank}_bank_type`} label={`${title} identified by`}>
        <option value="">{none}</option>
        <option value="ABA">ABA routing number</option>
        <option value="SWIFT">SWIFT BIC</option>
      </SelectField>
      <WireText prefix={prefix} field={`${bank}_bank_routing_id`} label={`${title} ABA or BIC`} hint={hint} />
    </>
  );
}

/** A text field of the request, or a bank's identification pair (BankIdFields). */
type FieldDescriptor =
  | ({ field: WireTextName; label: string } & Pick<ComponentProps<typeof TextField>, "inputMode" | "hint">)
  | ({ bank: "beneficiary" | "intermediary" } & Omit<ComponentProps<typeof BankIdFields>, "prefix" | "bank">);

/** A bank's three address lines, labelled "<bank> address 1" to 3. */
const addressLines = (bank: "receiving" | "beneficiary" | "intermediary", title: string): FieldDescriptor[] =>
  ([1, 2, 3] as const).map((n) => ({ field: `${bank}_bank_address${n}`, label: `${title} address ${n}` }));

/** Draws the descriptors in order, under the form's prefix. */
function Fields({ prefix, list }: { prefix: string; list: FieldDescriptor[] }) {
  return list.map((d) =>
    "bank" in d ? (
      <BankIdFields key={d.bank} prefix={prefix} {...d} />
    ) : (
      <WireText key={d.field} prefix={prefix} {...d} />
    ),
  );
}

const PARTY: FieldDescriptor[] = [
  { field: "beneficiary_name", label: "Name" },
  { field: "beneficiary_account_number", label: "Account number" },
  { field: "beneficiary_address1", label: "Address line 1" },
  { field: "beneficiary_address2", label: "Address line 2 (optional)" },
  { field: "beneficiary_address3", label: "Address line 3 (optional)" },
];

const BANKS: FieldDescriptor[] = [
  {
    field: "receiving_bank_routing_id",
    label: "Receiving bank ABA routing number",
    inputMode: "numeric",
    hint: "Nine digits; the last is a check digit.",
  },
  { field: "receiving_bank_name", label: "Receiving bank name" },
  {
    bank: "beneficiary",
    title: "Beneficiary bank",
    none: "Not given",
    hint: "A BIC has 8 or 11 characters, such as DEUTDEFF500.",
  },
  { field: "beneficiary_bank_name", label: "Beneficiary bank name" },
  ...addressLines("beneficiary", "Beneficiary bank"),
];

/** Behind "Receiving bank address and intermediary bank". */
const MORE_BANKS: FieldDescriptor[] = [
  ...addressLines("receiving", "Receiving bank"),
  { bank: "intermediary", title: "Intermediary bank", none: "No intermediary bank" },
  { field: "intermediary_bank_account_number", label: "Account at the intermediary bank" },
  { field: "intermediary_bank_name", label: "Intermediary bank name" },
  ...addressLines("intermediary", "Intermediary bank"),
];

/** Name, account number and address of the person or company paid. */
export function BeneficiaryPartyFields({ prefix = "" }: { prefix?: string }) {
  return <Fields prefix={prefix} list={PARTY} />;
}

/** The receiving bank (ABA), the beneficiary's bank and an optional intermediary bank. */
export function BeneficiaryBankFields({ prefix = "" }: { prefix?: string }) {
  return (
    <>
      <Fields prefix={prefix} list={BANKS} />
      <MoreFields summary="Receiving bank address and intermediary bank">
        <Fields prefix={prefix} list={MORE_BANKS} />
      </MoreFields>
    </>
  );
}
