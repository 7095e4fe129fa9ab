import { CopyButton } from "@/components/ui/copy-button.tsx";
import { maskAccountNumber } from "@/lib/format/money.ts";

/** The masked number for scanning, the full number beside it, and a copy button. */
export function AccountNumber({ accountNumber, className }: { accountNumber: string; className?: string }) {
  return (
    <div className={className}>
      <span className="sr-only">Account number {accountNumber}</span>
      <span aria-hidden="true" className="font-mono text-sm text-slate-700">
        {maskAccountNumber(accountNumber)}
      </span>
      <span aria-hidden="true" className="mx-2 text-slate-300">
        |
      </span>
      <span aria-hidden="true" className="font-mono text-sm text-slate-600 tabular-nums">
        {accountNumber}
      </span>
      <span className="relative z-10 ml-1 align-middle">
        <CopyButton text={accountNumber} label={`Copy account number ${accountNumber}`} />
      </span>
    </div>
  );
}
