"use client";
// Rejecting a draft: a reason is required (the preparer reads it), sent with the version seen.
import { Form, FormAlert, SubmitButton, TextareaField } from "@/components/form/form.tsx";
import { DraftSummary } from "@/components/send-money/draft-summary.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogActions } from "@/components/ui/dialog.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { type Draft, type DraftResponse, RejectDraftRequest } from "@/lib/dashboard-api/wires.ts";

const ReasonForm = RejectDraftRequest.pick({ reason: true });

export function RejectDialog({
  draft,
  onClose,
  onDone,
}: {
  draft: Draft | null;
  onClose: () => void;
  onDone: (d: Draft) => void;
}) {
  const form = useZodForm(ReasonForm, { defaultValues: { reason: "" } });
  return (
    <Dialog
      open={!!draft}
      onClose={onClose}
      title="Reject this payment?"
      description="It will not be paid. Say why: the preparer sees the reason."
    >
      {draft ? (
        <Form
          form={form}
          onSubmit={async (v) => {
            const r = await apiFetch<typeof DraftResponse>(`/api/drafts/${draft.id}/reject`, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ version: draft.version, reason: v.reason }),
            });
            form.reset({ reason: "" });
            onDone(r.draft);
          }}
        >
          <DraftSummary d={draft} />
          <TextareaField name="reason" label="Reason" rows={3} />
          <FormAlert />
          <DialogActions>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <SubmitButton busyLabel="Rejecting…">Reject payment</SubmitButton>
          </DialogActions>
        </Form>
      ) : null}
    </Dialog>
  );
}
