"use client";
// The fields of an outgoing wire's payment (the account it leaves, its amount, the message to the
// beneficiary) and the picker of a saved beneficiary that fills the rest, for the wire form and the
// Scheduled page's wire series. Both sit inside a form bound to WireDraftRequest (react-hook-form).
import type { ComponentProps } from "react";
import { useWatch } from "react-hook-form";
import { AccountOptions } from "@/components/accounts/account-options.tsx";
import { CharacterCount, MoneyField, SelectField, TextareaField } from "@/components/form/form.tsx";
import { Select } from "@/components/ui/field.tsx";
import { INITIATE_PAYMENT_FIELDS } from "@/lib/bank-api/rules.ts";
import type { Beneficiary } from "@/lib/dashboard-api/wires.ts";
import { typedDollarsToCents } from "@/lib/form-rules/typed-dollars.ts";
import { formatUsd } from "@/lib/format/money.ts";

type Accounts = ComponentProps<typeof AccountOptions>["accounts"];

/** From account, amount (warned when more than the account has now) and the message to the beneficiary. */
export function WirePaymentFields({
  accounts,
  refusedWhen = "at release",
}: {
  accounts: Accounts;
  /** When the bank would refuse an amount the account does not have: "at release", "on its day". */
  refusedWhen?: string;
}) {
  const [account, amount] = useWatch({ name: ["originator_account_number", "amount"] }) as [
    string | undefined,
    string | undefined,
  ];
  const cents = typedDollarsToCents(String(amount ?? "")) ?? 0;
  const from = accounts.find((a) => a.accountNumber === account);
  return (
    <>
      <SelectField name="originator_account_number" label="From account">
        <option value="">Choose an account</option>
        <AccountOptions accounts={accounts} available />
      </SelectField>
      <MoneyField
        name="amount"
        label="Amount (USD)"
        hint={
          from?.availableCents != null && cents > from.availableCents
            ? `More than the ${formatUsd(from.availableCents)} available now: the bank refuses it ${refusedWhen} unless funds arrive.`
            : undefined
        }
      />
      <TextareaField
        name="originator_to_beneficiary_info"
        label="Message to the beneficiary (optional)"
        hint={
          <CharacterCount
            name="originator_to_beneficiary_info"
            max={INITIATE_PAYMENT_FIELDS.originator_to_beneficiary_info.max}
          />
        }
        rows={2}
        className="md:col-span-2"
      />
    </>
  );
}

/**
 * "Fill from a saved beneficiary": the approved ones (`usable`) are offered; the hint says when
 * none is saved, or how many wait for a second person's approval.
 */
export function SavedBeneficiarySelect({
  templates,
  usable,
  loaded,
  onChoose,
  error,
  none = "None saved yet: fill in the fields, then save them below for next time.",
  className = "md:col-span-2",
}: {
  templates: readonly Beneficiary[];
  usable: readonly Beneficiary[];
  loaded: boolean;
  onChoose: (id: string) => void;
  error?: string;
  /** The hint when none is saved. */
  none?: string;
  className?: string;
}) {
  const waiting = templates.length - usable.length;
  return (
    <Select
      label="Fill from a saved beneficiary"
      defaultValue=""
      onChange={(e) => onChoose(e.target.value)}
      className={className}
      error={error}
      hint={
        loaded && templates.length === 0
          ? none
          : waiting
            ? `${waiting === 1 ? "One saved beneficiary is" : `${waiting} saved beneficiaries are`} not offered: new or changed, ${waiting === 1 ? "it waits" : "they wait"} for another person's approval.`
            : undefined
      }
    >
      <option value="">Choose one to fill the fields</option>
      {usable.map((b) => (
        <option key={b.id} value={b.id}>
          {b.label}
        </option>
      ))}
    </Select>
  );
}
