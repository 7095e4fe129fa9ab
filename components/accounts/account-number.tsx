"use client";
import { useState } from "react";
import { cn } from "@/components/ui/cn.ts";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { maskAccountNumber } from "@/lib/format/money.ts";

/**
 * The masked number, the full one only on request (a screen shared in a meeting shows the last
 * four digits), and a copy button that copies the full number either way.
 */
export function AccountNumber({ accountNumber, className }: { accountNumber: string; className?: string }) {
  const [shown, setShown] = useState(false);
  const last4 = accountNumber.slice(-4);
  return (
    <div className={cn("relative z-10 flex flex-wrap items-center gap-x-1 text-sm", className)}>
      <span className="font-mono text-slate-700 tabular-nums">
        {shown ? (
          accountNumber
        ) : (
          <>
            <span aria-hidden="true">{maskAccountNumber(accountNumber)}</span>
            <span className="sr-only">Account number ending {last4}</span>
          </>
        )}
      </span>
      <button
        type="button"
        aria-pressed={shown}
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setShown((s) => !s);
        }}
        className="rounded-md px-1.5 py-0.5 text-xs font-medium text-brand-700 hover:bg-slate-100 hover:underline"
      >
        {shown ? "Hide" : "Show"}
        <span className="sr-only"> full account number ending {last4}</span>
      </button>
      <CopyButton text={accountNumber} label={`Copy account number ending ${last4}`} />
    </div>
  );
}
