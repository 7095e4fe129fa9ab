"use client";
// What the wire form reads: the accounts, the saved beneficiaries (approved ones fill a wire; the
// rest wait for a second person) and, when a draft is corrected, that draft.
import { useQuery } from "@tanstack/react-query";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { BeneficiaryListResponse, DraftResponse } from "@/lib/dashboard-api/wires.ts";

export function useWireSources(draftId: string | undefined) {
  const accounts = useQuery(accountsQuery());
  const beneficiaries = useQuery({
    queryKey: queryKeys.beneficiaries(),
    queryFn: ({ signal }) => apiFetch<typeof BeneficiaryListResponse>("/api/beneficiaries", { signal }),
  });
  const stored = useQuery({
    queryKey: queryKeys.draft(draftId),
    enabled: !!draftId,
    queryFn: ({ signal }) => apiFetch<typeof DraftResponse>(`/api/drafts/${draftId}`, { signal }),
  });
  const templates = beneficiaries.data?.beneficiaries ?? [];
  return {
    accounts,
    beneficiariesLoaded: !!beneficiaries.data,
    /** Every saved beneficiary. */
    templates,
    /** The approved ones: only these fill a wire. */
    usable: templates.filter((b) => b.status === "approved"),
    stored,
    /** The draft being corrected, once loaded. */
    original: stored.data?.draft,
  };
}
