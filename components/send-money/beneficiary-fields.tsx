// The beneficiary's and its bank's fields of an outgoing wire, shared by the wire form and the
// saved-beneficiaries page (whose form holds them under a prefix, "fields."). Each field's
// length limit is the contract's (lib/bank-api/rules.ts).
import type { ComponentProps } from "react";
import { SelectField, TextField } from "@/components/form/form.tsx";
import { INITIATE_PAYMENT_FIELDS } from "@/lib/bank-api/rules.ts";

type WireTextName = {
  [K in keyof typeof INITIATE_PAYMENT_FIELDS]: (typeof INITIATE_PAYMENT_FIELDS)[K] extends { kind: "text" }
    ? K
    : never;
}[keyof typeof INITIATE_PAYMENT_FIELDS];

/** One text field of the initiate-payment request, limited as the contract limits it. */
function WireText({
  prefix,
  field,
  ...props
}: { prefix: string; field: WireTextName } & Omit<ComponentProps<typeof TextField>, "name" | "maxLength">) {
  return (
    <TextField
      name={`${prefix}${field}`}
      maxLength={INITIATE_PAYMENT_FIELDS[field].max}
      autoComplete="off"
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

/** Name, account number and address of the person or company paid. */
export function BeneficiaryPartyFields({ prefix = "" }: { prefix?: string }) {
  return (
    <>
      <WireText prefix={prefix} field="beneficiary_name" label="Name" />
      <WireText prefix={prefix} field="beneficiary_account_number" label="Account number" />
      <WireText prefix={prefix} field="beneficiary_address1" label="Address line 1" />
      <WireText prefix={prefix} field="beneficiary_address2" label="Address line 2 (optional)" />
      <WireText prefix={prefix} field="beneficiary_address3" label="Address line 3 (optional)" />
    </>
  );
}

/** The receiving bank (ABA), the beneficiary's bank and an optional intermediary bank. */
export function BeneficiaryBankFields({ prefix = "" }: { prefix?: string }) {
  return (
    <>
      <WireText
        prefix={prefix}
        field="receiving_bank_routing_id"
        label="Receiving bank ABA routing number"
        inputMode="numeric"
        hint="Nine digits; the last is a check digit."
      />
      <WireText prefix={prefix} field="receiving_bank_name" label="Receiving bank name" />
      <BankIdFields
        prefix={prefix}
        bank="beneficiary"
        title="Beneficiary bank"
        none="Not given"
        hint="A BIC has 8 or 11 characters, such as DEUTDEFF500."
      />
      <WireText prefix={prefix} field="beneficiary_bank_name" label="Beneficiary bank name" />
      <WireText prefix={prefix} field="beneficiary_bank_address1" label="Beneficiary bank address 1" />
      <WireText prefix={prefix} field="beneficiary_bank_address2" label="Beneficiary bank address 2" />
      <WireText prefix={prefix} field="beneficiary_bank_address3" label="Beneficiary bank address 3" />
      <details className="md:col-span-2">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">
          Receiving bank address and intermediary bank
        </summary>
        <div className="mt-3 grid gap-4 md:grid-cols-2">
          <WireText prefix={prefix} field="receiving_bank_address1" label="Receiving bank address 1" />
          <WireText prefix={prefix} field="receiving_bank_address2" label="Receiving bank address 2" />
          <WireText prefix={prefix} field="receiving_bank_address3" label="Receiving bank address 3" />
          <BankIdFields
            prefix={prefix}
            bank="intermediary"
            title="Intermediary bank"
            none="No intermediary bank"
          />
          <WireText
            prefix={prefix}
            field="intermediary_bank_account_number"
            label="Account at the intermediary bank"
          />
          <WireText prefix={prefix} field="intermediary_bank_name" label="Intermediary bank name" />
          <WireText prefix={prefix} field="intermediary_bank_address1" label="Intermediary bank address 1" />
          <WireText prefix={prefix} field="intermediary_bank_address2" label="Intermediary bank address 2" />
          <WireText prefix={prefix} field="intermediary_bank_address3" label="Intermediary bank address 3" />
        </div>
      </details>
    </>
  );
}
