"use client";
// Saving the wire form's beneficiary and bank fields as a saved beneficiary, under a label: the
// label typed and the answer stay while the person goes to the review and back.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, sendJson } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { BeneficiaryResponse } from "@/lib/dashboard-api/wires.ts";

/** `fields`: the beneficiary and bank fields as the form holds them when saving. */
export function useSaveBeneficiary(fields: () => Record<string, string>) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function save() {
    setError(null);
    try {
      const r = await sendJson<typeof BeneficiaryResponse>("POST", "/api/beneficiaries", {
        label,
        fields: fields(),
      });
      setSaved(r.beneficiary.label);
      void queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries() });
    } catch (e) {
      setError(
        e instanceof ApiError
          ? [e.message, ...e.fields.map((f) => `${f.field.replace(/^fields\./, "")}: ${f.message}`)].join(" ")
          : "The beneficiary could not be saved.",
      );
    }
  }

  function reset() {
    setLabel("");
    setSaved(null);
    setError(null);
  }

  return { label, setLabel, saved, error, save, reset };
}

export type SaveBeneficiary = ReturnType<typeof useSaveBeneficiary>;
