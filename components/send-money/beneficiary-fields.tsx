// The beneficiary's and its bank's fields of an outgoing wire, shared by the wire form and the
// saved-beneficiaries page (whose form holds them under a prefix, "fields.").
import { SelectField, TextField } from "@/components/form/form.tsx";

const LINE = { maxLength: 35, autoComplete: "off" } as const;

/** Name, account number and address of the person or company paid. */
export function BeneficiaryPartyFields({ prefix = "" }: { prefix?: string }) {
  return (
    <>
      <TextField name={`${prefix}beneficiary_name`} label="Name" {...LINE} />
      <TextField
        name={`${prefix}beneficiary_account_number`}
        label="Account number"
        maxLength={35}
        autoComplete="off"
      />
      <TextField name={`${prefix}beneficiary_address1`} label="Address line 1" {...LINE} />
      <TextField name={`${prefix}beneficiary_address2`} label="Address line 2 (optional)" {...LINE} />
      <TextField name={`${prefix}beneficiary_address3`} label="Address line 3 (optional)" {...LINE} />
    </>
  );
}

/** The receiving bank (ABA), the beneficiary's bank and an optional intermediary bank. */
export function BeneficiaryBankFields({ prefix = "" }: { prefix?: string }) {
  return (
    <>
      <TextField
        name={`${prefix}receiving_bank_routing_id`}
        label="Receiving bank ABA routing number"
        inputMode="numeric"
        maxLength={9}
        hint="Nine digits; the last is a check digit."
        autoComplete="off"
      />
      <TextField name={`${prefix}receiving_bank_name`} label="Receiving bank name" {...LINE} />
      <SelectField name={`${prefix}beneficiary_bank_type`} label="Beneficiary bank identified by">
        <option value="">Not given</option>
        <option value="ABA">ABA routing number</option>
        <option value="SWIFT">SWIFT BIC</option>
      </SelectField>
      <TextField
        name={`${prefix}beneficiary_bank_routing_id`}
        label="Beneficiary bank ABA or BIC"
        maxLength={11}
        hint="A BIC has 8 or 11 characters, such as DEUTDEFF500."
        autoComplete="off"
      />
      <TextField name={`${prefix}beneficiary_bank_name`} label="Beneficiary bank name" {...LINE} />
      <TextField name={`${prefix}beneficiary_bank_address1`} label="Beneficiary bank address 1" {...LINE} />
      <TextField name={`${prefix}beneficiary_bank_address2`} label="Beneficiary bank address 2" {...LINE} />
      <TextField name={`${prefix}beneficiary_bank_address3`} label="Beneficiary bank address 3" {...LINE} />
      <details className="md:col-span-2">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">
          Receiving bank address and intermediary bank
        </summary>
        <div className="mt-3 grid gap-4 md:grid-cols-2">
          <TextField name={`${prefix}receiving_bank_address1`} label="Receiving bank address 1" {...LINE} />
          <TextField name={`${prefix}receiving_bank_address2`} label="Receiving bank address 2" {...LINE} />
          <TextField name={`${prefix}receiving_bank_address3`} label="Receiving bank address 3" {...LINE} />
          <SelectField name={`${prefix}intermediary_bank_type`} label="Intermediary bank identified by">
            <option value="">No intermediary bank</option>
            <option value="ABA">ABA routing number</option>
            <option value="SWIFT">SWIFT BIC</option>
          </SelectField>
          <TextField
            name={`${prefix}intermediary_bank_routing_id`}
            label="Intermediary bank ABA or BIC"
            maxLength={11}
          />
          <TextField
            name={`${prefix}intermediary_bank_account_number`}
            label="Account at the intermediary bank"
            maxLength={35}
          />
          <TextField name={`${prefix}intermediary_bank_name`} label="Intermediary bank name" {...LINE} />
          <TextField
            name={`${prefix}intermediary_bank_address1`}
            label="Intermediary bank address 1"
            {...LINE}
          />
          <TextField
            name={`${prefix}intermediary_bank_address2`}
            label="Intermediary bank address 2"
            {...LINE}
          />
          <TextField
            name={`${prefix}intermediary_bank_address3`}
            label="Intermediary bank address 3"
            {...LINE}
          />
        </div>
      </details>
    </>
  );
}
