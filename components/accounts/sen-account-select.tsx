"use client";
// A choice among the customer's own SEN accounts, for the forms outside the send-money flow (a
// series' sending account, a sweep's two accounts): each named, numbered and with what it has.
import { useQuery } from "@tanstack/react-query";
import { AccountOptions } from "@/components/accounts/account-options.tsx";
import { Select } from "@/components/ui/field.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { accountInWords } from "@/lib/format/money.ts";

/**
 * An own account as a sentence names it ("SEN RESERVE ••••4890"), from the accounts list; a
 * number the list does not hold (another customer's, or the list not loaded yet) as itself.
 */
export function useAccountWords(): (accountNumber: string) => string {
  const accounts = useQuery(accountsQuery());
  const names = new Map((accounts.data?.accounts ?? []).map((a) => [a.accountNumber, a.name]));
  return (n) => (names.get(n) ? accountInWords(n, names.get(n)) : n);
}

export function SenAccountSelect({
  label,
  name,
  defaultValue,
  error,
  hint,
}: {
  label: string;
  name: string;
  defaultValue?: string;
  error?: string;
  hint?: string;
}) {
  const accounts = useQuery(accountsQuery());
  const sen = (accounts.data?.accounts ?? []).filter((a) => a.type === "SEN");
  // An account the list no longer shows (closed, or not loaded yet) stays what an edit starts from.
  const kept = defaultValue && !sen.some((a) => a.accountNumber === defaultValue) ? defaultValue : null;
  return (
    <Select
      // Chosen again once the accounts arrive: an uncontrolled select reads its default once.
      key={sen.length}
      label={label}
      name={name}
      required
      defaultValue={defaultValue ?? ""}
      error={error}
      hint={accounts.isPending ? "Loading your accounts…" : hint}
    >
      <option value="">Choose a SEN account</option>
      {kept ? <option value={kept}>{kept}</option> : null}
      <AccountOptions accounts={sen} available />
    </Select>
  );
}

/** The own SEN accounts as suggestions for a field that also takes another customer's number. */
export function OwnSenAccounts({ id }: { id: string }) {
  const accounts = useQuery(accountsQuery());
  return (
    <datalist id={id}>
      {(accounts.data?.accounts ?? [])
        .filter((a) => a.type === "SEN")
        .map((a) => (
          <option key={a.accountNumber} value={a.accountNumber}>
            {a.name}
          </option>
        ))}
    </datalist>
  );
}
