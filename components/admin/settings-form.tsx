"use client";
// /admin/settings: the dual-control limits, typed in dollars and stored in cents, and the wait
// before the approval digest, in minutes. A lower limit
// applies at once; a higher one waits for a second administrator, listed under the form.
import { useState } from "react";
import { Form, FormAlert, MoneyField, SubmitButton, TextField } from "@/components/form/form.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { centsToDecimal, formatUsd } from "@/lib/bank-api/money.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { SettingsResponse } from "@/lib/dashboard-api/index.ts";
import { settingsForm } from "@/lib/form-rules/settings-form.ts";
import { PendingChanges } from "./pending-changes.tsx";

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

export function SettingsForm({
  initial,
  currentUserId,
}: {
  initial: SettingsResponse;
  currentUserId: string;
}) {
  const [current, setCurrent] = useState(initial);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useZodForm(settingsForm, {
    defaultValues: {
      senReleaseThresholdCents: asText(initial.settings.senReleaseThresholdCents),
      incomingWireDualApprovalCents: asText(initial.settings.incomingWireDualApprovalCents),
      releaseDualApprovalCents: asText(initial.settings.releaseDualApprovalCents),
      approvalDigestAfterMinutes: String(initial.settings.approvalDigestAfterMinutes),
    },
  });

  /** Shows the limits in force (a raise waiting for approval is not one of them). */
  function show(next: SettingsResponse) {
    setCurrent(next);
    form.reset({
      senReleaseThresholdCents: asText(next.settings.senReleaseThresholdCents),
      incomingWireDualApprovalCents: asText(next.settings.incomingWireDualApprovalCents),
      releaseDualApprovalCents: asText(next.settings.releaseDualApprovalCents),
      approvalDigestAfterMinutes: String(next.settings.approvalDigestAfterMinutes),
    });
  }

  return (
    <div className="space-y-6">
      <Form
        form={form}
        aria-label="Dual-control limits"
        onSubmit={async (values) => {
          setSaved(null);
          const next = await apiFetch<typeof SettingsResponse>("/api/admin/settings", {
            method: "PUT",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(values),
          });
          show(next);
          setSaved(
            next.requested?.length
              ? `Waiting for a second administrator: ${next.requested.map((c) => c.summary).join("; ")}. The limits in force are shown above.`
              : "Saved. The new limits apply to the next payment.",
          );
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
        <MoneyField
          name="releaseDualApprovalCents"
          label="Outgoing payments need two approvers above (USD)"
          hint={
            <>
              Above {formatUsd(current.settings.releaseDualApprovalCents)} a wire or SEN draft needs two
              different approvers, neither its preparer; the second approval sends it.{" "}
              <Changed entry={current.changed.releaseDualApprovalCents} />
            </>
          }
        />
        <TextField
          name="approvalDigestAfterMinutes"
          label="E-mail approvers what has waited longer than (minutes)"
          inputMode="numeric"
          hint={
            <>
              What waits for approval longer than {current.settings.approvalDigestAfterMinutes} minutes is
              e-mailed once, in one digest, to each person who may act on it.{" "}
              <Changed entry={current.changed.approvalDigestAfterMinutes} />
            </>
          }
        />
        <div className="flex items-center gap-3">
          <SubmitButton busyLabel="Saving…">Save limits</SubmitButton>
          <p role="status" className="text-sm text-emerald-800">
            {saved ?? ""}
          </p>
        </div>
      </Form>
      <section aria-labelledby="pending-settings" className="space-y-2 border-t border-slate-200 pt-4">
        <h2 id="pending-settings" className="text-base font-semibold text-slate-900">
          Waiting for a second administrator
        </h2>
        <p className="text-sm text-slate-600">
          A higher limit weakens a control: it applies only when another administrator approves it.
        </p>
        <PendingChanges
          changes={current.pending}
          currentUserId={currentUserId}
          caption="Limit changes waiting for approval"
          onDecided={async () => {
            setSaved(null);
            show(await apiFetch<typeof SettingsResponse>("/api/admin/settings", { cache: "no-store" }));
          }}
        />
      </section>
    </div>
  );
}
