"use client";
// An outgoing wire becomes a draft here: every initiate-payment field with the contract's limits,
// grouped as the beneficiary, the beneficiary's bank and an intermediary bank; ABA check digits
// and BIC formats checked as they are typed (and again by the server). Saved beneficiaries fill
// the form, approved ones only (a new one, or one whose account or bank change waits for a second
// person, is not offered); the draft names the one that filled it while its account and bank
// details are as saved. The review step warns of the same beneficiary and amount within 7 days.
// What it reads (hooks/use-wire-sources.ts), the fill (hooks/use-beneficiary-fill.ts), the
// duplicate check (hooks/use-wire-duplicates.ts) and saving a beneficiary (hooks/use-save-beneficiary.ts)
// live beside it, the payment fields and the saved-beneficiary picker in wire-fields.tsx (the
// Scheduled page's wire series uses them too); this file creates or corrects the draft.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useWatch } from "react-hook-form";
import { Form } from "@/components/form/form.tsx";
import {
  BeneficiaryBankFields,
  BeneficiaryPartyFields,
} from "@/components/send-money/beneficiary-fields.tsx";
import { DuplicateWarning } from "@/components/send-money/duplicate-warning.tsx";
import { SaveBeneficiaryCard } from "@/components/send-money/save-beneficiary.tsx";
import { Review, StepActions, StepTitle } from "@/components/send-money/send-steps.tsx";
import { SavedBeneficiarySelect, WirePaymentFields } from "@/components/send-money/wire-fields.tsx";
import { Button } from "@/components/ui/button.tsx";
import { CardBody, TitledCard } from "@/components/ui/card.tsx";
import { Money } from "@/components/ui/money.tsx";
import { useBeneficiaryFill } from "@/hooks/use-beneficiary-fill.ts";
import { useSaveBeneficiary } from "@/hooks/use-save-beneficiary.ts";
import { useSendSteps } from "@/hooks/use-send-steps.ts";
import { useWireDuplicates } from "@/hooks/use-wire-duplicates.ts";
import { useWireSources } from "@/hooks/use-wire-sources.ts";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { ApiError, sendJson } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { Draft, DraftResponse, WireDraftInput, WireDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { TEMPLATE_FIELDS } from "@/lib/form-rules/send-money-fields.ts";
import { typedDollarsToCents } from "@/lib/form-rules/typed-dollars.ts";
import { EMPTY_WIRE, wireValuesOf } from "@/lib/form-rules/wire-values.ts";

// The schema (and zod with it) loads when the form is first used, not with the page.
const loadSchema = () =>
  import("@/lib/dashboard-api/wires.ts").then((m): typeof WireDraftRequest => m.WireDraftRequest);

const STORAGE = "treasury.wire-draft";

/** `draftId`: correct that pending draft (a new preparation: any earlier review of it is void). */
export function WireForm({ draftId }: { draftId?: string } = {}) {
  const queryClient = useQueryClient();
  const { accounts, beneficiariesLoaded, templates, usable, stored, original } = useWireSources(draftId);
  const form = useZodForm(loadSchema, { defaultValues: EMPTY_WIRE });
  // A correction is keyed by its draft (and its version), not by a form session.
  const steps = useSendSteps<WireDraftInput>(STORAGE, form, { resume: !draftId });
  const { stage, setStage } = steps;
  const [draft, setDraft] = useState<Draft | null>(null);
  const { duplicates, check: checkDuplicates } = useWireDuplicates();
  const beneficiary = useBeneficiaryFill(form, templates);
  const saveBeneficiary = useSaveBeneficiary(() =>
    Object.fromEntries(
      TEMPLATE_FIELDS.map((f) => [f, (form.getValues() as Record<string, string>)[f] ?? ""]),
    ),
  );

  // The stored draft fills the form once it arrives.
  useEffect(() => {
    if (original) form.reset(wireValuesOf(original));
  }, [original, form]);

  const values = useWatch({ control: form.control }) as WireDraftInput;
  const amountCents = typedDollarsToCents(String(values.amount ?? "")) ?? 0;
  const from = accounts.data?.accounts.find((a) => a.accountNumber === values.originator_account_number);

  async function onSubmit() {
    if (stage === "edit") {
      beneficiary.keepIfUnchanged();
      await checkDuplicates(values.beneficiary_account_number ?? "", amountCents);
      setStage("review");
      return;
    }
    if (original) {
      try {
        const r = await sendJson<typeof DraftResponse>("PUT", `/api/drafts/${original.id}`, {
          version: original.version,
          wire: form.getValues(),
        });
        setDraft(r.draft);
        setStage("done");
        void queryClient.invalidateQueries({ queryKey: queryKeys.drafts() });
      } catch (e) {
        if (e instanceof ApiError && e.status === 400) setStage("edit");
        throw e;
      }
      return;
    }
    await steps.confirm(
      (raw) => sendJson<typeof DraftResponse>("POST", "/api/wires", raw),
      [400, 409],
      (r) => {
        setDraft(r.draft);
        void queryClient.invalidateQueries({ queryKey: queryKeys.drafts() });
      },
    );
  }

  function startOver() {
    steps.startOver(EMPTY_WIRE);
    setDraft(null);
    saveBeneficiary.reset();
  }

  if (draftId && (stored.isError || (original && original.status !== "pending")))
    return (
      <p
        role="alert"
        className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        {stored.isError
          ? stored.error.message
          : `This draft is ${original?.status} and can no longer be changed. Prepare a new wire instead.`}{" "}
        <Link href="/drafts" className="font-medium text-brand-700 underline">
          Back to drafts
        </Link>
      </p>
    );

  if (stage === "done" && draft) {
    return (
      <TitledCard
        id="wire-done"
        title={
          <StepTitle ref={steps.headingRef}>
            {original
              ? `Draft changed: version ${draft.version} waits for release`
              : "Draft saved: waiting for release"}
          </StepTitle>
        }
      >
        <CardBody className="flex flex-col gap-3 text-sm">
          <p role="status">
            A wire of <Money cents={draft.amountCents} /> to {draft.counterparty} waits on the{" "}
            <Link href="/drafts" className="font-medium text-brand-700 underline">
              Drafts
            </Link>{" "}
            page. Another person with release rights sends it to the bank.
          </p>
          <div>
            {original ? (
              <Link href="/drafts" className="font-medium text-brand-700 underline">
                Back to drafts
              </Link>
            ) : (
              <Button onClick={startOver}>New wire</Button>
            )}
          </div>
        </CardBody>
      </TitledCard>
    );
  }

  return (
    <Form form={form} onSubmit={onSubmit} aria-label="Outgoing wire">
      {stage === "edit" ? (
        <>
          <TitledCard
            id="wire-payment"
            title={<StepTitle ref={steps.headingRef}>Payment</StepTitle>}
            description={
              original
                ? `Correcting the draft prepared by ${original.preparedBy.email}: saving makes it a new preparation, and any review of the earlier version no longer counts.`
                : "Nothing is sent: the wire becomes a draft that another person releases."
            }
          >
            <CardBody className="grid gap-4 md:grid-cols-2">
              <WirePaymentFields accounts={accounts.data?.accounts ?? []} />
            </CardBody>
          </TitledCard>

          <TitledCard id="wire-beneficiary" title="Beneficiary" level={2}>
            <CardBody className="grid gap-4 md:grid-cols-2">
              <SavedBeneficiarySelect
                templates={templates}
                usable={usable}
                loaded={beneficiariesLoaded}
                onChoose={beneficiary.fill}
              />
              <BeneficiaryPartyFields />
            </CardBody>
          </TitledCard>

          <TitledCard
            id="wire-bank"
            title="Beneficiary bank"
            description="A US bank by its ABA routing number; a bank abroad by its SWIFT BIC."
          >
            <CardBody className="grid gap-4 md:grid-cols-2">
              <BeneficiaryBankFields />
            </CardBody>
          </TitledCard>

          <SaveBeneficiaryCard state={saveBeneficiary} />

          <StepActions busyLabel="Checking…">Review wire</StepActions>
        </>
      ) : (
        <TitledCard
          id="wire-review"
          title={<StepTitle ref={steps.headingRef}>Review the wire</StepTitle>}
          description="Saving makes a draft; nothing is sent yet."
        >
          <CardBody className="flex flex-col gap-4 text-sm">
            <DuplicateWarning
              duplicates={duplicates}
              amountCents={amountCents}
              account={values.beneficiary_account_number}
            />
            <Review.List>
              <Review.Amount cents={amountCents} />
              <Review.Row term="From" account={from}>
                {values.originator_account_number}
              </Review.Row>
              <Review.Row term="Beneficiary">
                {values.beneficiary_name} · account {values.beneficiary_account_number}
                <span className="block text-slate-600">
                  {[values.beneficiary_address1, values.beneficiary_address2, values.beneficiary_address3]
                    .filter(Boolean)
                    .join(", ")}
                </span>
              </Review.Row>
              <Review.Row term="Bank">
                {[
                  values.receiving_bank_routing_id && `ABA ${values.receiving_bank_routing_id}`,
                  values.receiving_bank_name,
                  values.beneficiary_bank_routing_id &&
                    `${values.beneficiary_bank_type || ""} ${values.beneficiary_bank_routing_id}`.trim(),
                  values.beneficiary_bank_name,
                ]
                  .filter(Boolean)
                  .join(" · ") || "—"}
              </Review.Row>
              {values.intermediary_bank_routing_id ? (
                <Review.Row term="Intermediary">
                  {values.intermediary_bank_type} {values.intermediary_bank_routing_id}{" "}
                  {values.intermediary_bank_name}
                </Review.Row>
              ) : null}
              {values.originator_to_beneficiary_info ? (
                <Review.Row term="Message">{values.originator_to_beneficiary_info}</Review.Row>
              ) : null}
            </Review.List>
            <StepActions onBack={steps.edit} busyLabel="Saving…">
              Save draft for release
            </StepActions>
          </CardBody>
        </TitledCard>
      )}
    </Form>
  );
}
