import { formatUsd } from "@/lib/format/money.ts";

/** An account picker's options, each named and numbered in full; with `available`, what it has to send. */
export function AccountOptions({
  accounts,
  available = false,
}: {
  accounts: readonly { accountNumber: string; name: string; availableCents?: number | null }[];
  available?: boolean;
}) {
  return accounts.map((a) => (
    <option key={a.accountNumber} value={a.accountNumber}>
      {a.name} · {a.accountNumber}
      {available && a.availableCents != null ? ` · ${formatUsd(a.availableCents)} available` : null}
    </option>
  ));
}
