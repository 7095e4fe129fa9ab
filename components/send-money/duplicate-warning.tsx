"use client";
// The wire review's warning of the same beneficiary account and amount prepared in the last 7 days.
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import type { Draft } from "@/lib/dashboard-api/wires.ts";
import { formatInstant } from "@/lib/format/dates.ts";
import { formatUsd } from "@/lib/format/money.ts";

export function DuplicateWarning({
  duplicates,
  amountCents,
  account,
}: {
  duplicates: Draft[];
  amountCents: number;
  account: string | undefined;
}) {
  const timeZone = useBusinessTimeZone();
  if (!duplicates.length) return null;
  return (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
      <p className="font-semibold">Possible duplicate</p>
      <p>
        {duplicates.length === 1 ? "A wire" : `${duplicates.length} wires`} of {formatUsd(amountCents)} to
        account {account} {duplicates.length === 1 ? "was" : "were"} prepared in the last 7 days (latest{" "}
        {formatInstant(duplicates[0].preparedAt, timeZone)} by {duplicates[0].preparedBy.email}). Check before
        saving another.
      </p>
    </div>
  );
}
