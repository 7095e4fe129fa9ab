"use client";
// /admin/settings: the dual-control limits, typed in dollars and stored in cents.
import { useState } from "react";
import * as z from "zod/mini";
import { Form, FormAlert, MoneyField, SubmitButton } from "@/components/form/form.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { centsToDecimal, formatUsd } from "@/lib/bank-api/money.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { SettingsResponse } from "@/lib/dashboard-api/index.ts";
import { dollarsInput } from "@/lib/forms/fields.ts";

const MAX = 99_999_999_999_99;
const settingsForm = z.object({
  senReleaseThresholdCents: dollarsInput({ maxCents: MAX, label: "a threshold" }),
  incomingWireDualApprovalCents: dollarsInput({ maxCents: MAX, label: "a limit" }),
});

const asText = (cents: number) =>
  Number(centsToDecimal(cents)).toLocaleString("en-US", { minimumFractionDigits: 2 });

function Changed({ entry }: { entry?: SettingsResponse["changed"][string] }) {
  if (!entry) return <>Default value.</>;
  return (
    <>
      Last changed by {entry.by ?? "an administrator"} on{" "}
      <time dateTime={entry.at}>{new Date(entry.at).toLocaleString("en-US")}</time>.
    </>
  );
}

export function SettingsForm({ initial }: { initial: SettingsResponse }) {
  const [current, setCurrent] = useState(initial);
  const [saved, setSaved] = useState(false);
  const form = useZodForm(settingsForm, {
    defaultValues: {
      senReleaseThresholdCents: asText(initial.settings.senReleaseThresholdCents),
      incomingWireDualApprovalCents: asText(initial.settings.incomingWireDualApprovalCents),
    },
  });

  return (
    <Form
      form={form}
      aria-label="Dual-control limits"
      onSubmit={async (values) => {
        setSaved(false);
        const next = await apiFetch<typeof SettingsResponse>("/api/admin/settings", {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(values),
        });
        setCurrent(next);
        form.reset({
          senReleaseThresholdCents: asText(next.settings.senReleaseThresholdCents),
          incomingWireDualApprovalCents: asText(next.settings.incomingWireDualApprovalCents),
        });
        setSaved(true);
      }}
    >
      <FormAlert />
      <MoneyField
        name="senReleaseThresholdCents"
        label="SEN transfers need a second person above (USD)"
        hint={
          <>
            Above {formatUsd(current.settings.senReleaseThresholdCents)} a SEN transfer becomes a draft that
            another user releases. <Changed entry={current.changed.senReleaseThresholdCents} />
          </>
        }
      />
      <MoneyField
        name="incomingWireDualApprovalCents"
        label="Incoming wires need two approvers above (USD)"
        hint={
          <>
            Above {formatUsd(current.settings.incomingWireDualApprovalCents)} two different approvers must
            agree before a decision goes to the bank.{" "}
            <Changed entry={current.changed.incomingWireDualApprovalCents} />
          </>
        }
      />
      <div className="flex items-center gap-3">
        <SubmitButton busyLabel="Saving…">Save limits</SubmitButton>
        <p role="status" className="text-sm text-emerald-800">
          {saved ? "Saved. The new limits apply to the next payment." : ""}
        </p>
      </div>
    </Form>
  );
}
