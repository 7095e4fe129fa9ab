"use client";
// Saves the wire form's beneficiary and bank fields as a saved beneficiary, under a label; it fills
// wires once another person approves it.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { CardBody, TitledCard } from "@/components/ui/card.tsx";
import { Input } from "@/components/ui/field.tsx";
import { ApiError, sendJson } from "@/lib/dashboard-api/fetch.ts";
import type { BeneficiaryResponse } from "@/lib/dashboard-api/wires.ts";
import { BENEFICIARY_LABEL_MAX } from "@/lib/forms/send-money-fields.ts";

/** `fields`: the beneficiary and bank fields as the form holds them when the button is pressed. */
export function SaveBeneficiaryCard({ fields }: { fields: () => Record<string, string> }) {
  const queryClient = useQueryClient();
  const [saveAs, setSaveAs] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);

  async function save() {
    setSaveError(null);
    try {
      const r = await sendJson<typeof BeneficiaryResponse>("POST", "/api/beneficiaries", {
        label: saveAs,
        fields: fields(),
      });
      setSaved(r.beneficiary.label);
      void queryClient.invalidateQueries({ queryKey: ["beneficiaries"] });
    } catch (e) {
      setSaveError(
        e instanceof ApiError
          ? [e.message, ...e.fields.map((f) => `${f.field.replace(/^fields\./, "")}: ${f.message}`)].join(" ")
          : "The beneficiary could not be saved.",
      );
    }
  }

  return (
    <TitledCard
      id="wire-save"
      title="Save this beneficiary (optional)"
      description="Saves the beneficiary and bank fields above for the next wire."
    >
      <CardBody className="flex flex-wrap items-end gap-3">
        <Input
          label="Save as"
          value={saveAs}
          onChange={(e) => setSaveAs(e.target.value)}
          maxLength={BENEFICIARY_LABEL_MAX}
        />
        <Button variant="secondary" onClick={() => void save()} disabled={!saveAs.trim()}>
          Save beneficiary
        </Button>
        <p role="status" className="w-full text-sm">
          {saved ? (
            <span className="text-green-800">
              Saved as “{saved}”: it fills wires once another person approves it.
            </span>
          ) : null}
          {saveError ? <span className="text-rose-800">{saveError}</span> : null}
        </p>
      </CardBody>
    </TitledCard>
  );
}
