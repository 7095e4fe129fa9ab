"use client";
// In a dialog that casts a vote moving money: why the signed-in user cannot cast it yet, and until
// when (invited, or credentials reset, in the last 24 hours). The server refuses the vote anyway.
import { useQuery } from "@tanstack/react-query";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { SessionUser } from "@/lib/dashboard-api/session.ts";
import { formatInstant } from "@/lib/format/dates.ts";

export function VoteEmbargoNotice() {
  const timeZone = useBusinessTimeZone();
  const me = useQuery({
    queryKey: queryKeys.me(),
    queryFn: ({ signal }) => apiFetch<typeof SessionUser>("/api/me", { signal }),
    refetchOnMount: "always",
  });
  const until = me.data?.votesEmbargoedUntil;
  if (!until || new Date(until).getTime() <= Date.now()) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      You were invited, or your credentials were reset, less than 24 hours ago: until{" "}
      {formatInstant(until, timeZone)} you cannot approve anything that moves money. Another approver can.
    </p>
  );
}
