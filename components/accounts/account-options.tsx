/** An account picker's options, each named and numbered in full. */
export function AccountOptions({
  accounts,
}: {
  accounts: readonly { accountNumber: string; name: string }[];
}) {
  return accounts.map((a) => (
    <option key={a.accountNumber} value={a.accountNumber}>
      {a.name} · {a.accountNumber}
    </option>
  ));
}
