"use client";
// The wire form's "Save this beneficiary" card (its state: hooks/use-save-beneficiary.ts); a
// saved beneficiary fills wires once another person approves it.
import { Button } from "@/components/ui/button.tsx";
import { CardBody, TitledCard } from "@/components/ui/card.tsx";
import { Input } from "@/components/ui/field.tsx";
import type { SaveBeneficiary } from "@/hooks/use-save-beneficiary.ts";
import { BENEFICIARY_LABEL_MAX } from "@/lib/form-rules/send-money-fields.ts";

export function SaveBeneficiaryCard({ state }: { state: SaveBeneficiary }) {
  return (
    <TitledCard
      id="wire-save"
      title="Save this beneficiary (optional)"
      description="Saves the beneficiary and bank fields above for the next wire."
    >
      <CardBody className="flex flex-wrap items-end gap-3">
        <Input
          label="Save as"
          value={state.label}
          onChange={(e) => state.setLabel(e.target.value)}
          maxLength={BENEFICIARY_LABEL_MAX}
        />
        <Button variant="secondary" onClick={() => void state.save()} disabled={!state.label.trim()}>
          Save beneficiary
        </Button>
        <p role="status" className="w-full text-sm">
          {state.saved ? (
            <span className="text-green-800">
              Saved as “{state.saved}”: it fills wires once another person approves it.
            </span>
          ) : null}
          {state.error ? <span className="text-rose-800">{state.error}</span> : null}
        </p>
      </CardBody>
    </TitledCard>
  );
}
