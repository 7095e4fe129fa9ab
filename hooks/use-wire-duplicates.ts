"use client";
// The review step's duplicate check: wires prepared in the last 7 days to the same beneficiary
// account for the same amount. A failed check shows no warning rather than stopping the review.
import { useState } from "react";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { Draft, WireDuplicatesResponse } from "@/lib/dashboard-api/wires.ts";

export function useWireDuplicates() {
  const [duplicates, setDuplicates] = useState<Draft[]>([]);
  async function check(beneficiaryAccount: string, amountCents: number) {
    const q = new URLSearchParams({
      beneficiary_account_number: beneficiaryAccount,
      amountCents: String(amountCents),
    });
    const d = await apiFetch<typeof WireDuplicatesResponse>(`/api/wires/duplicates?${q}`).catch(() => ({
      drafts: [],
    }));
    setDuplicates(d.drafts);
  }
  return { duplicates, check };
}
