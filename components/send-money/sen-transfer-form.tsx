"use client";
// The SEN transfer: edit, review (both accounts, the amount in figures and words, what each
// history will read), confirm. One Idempotency-Key per form session, kept across a retry and a
// reload (hooks/use-form-session.ts); the bank's refusals land on the field they concern.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { AccountOptions } from "@/components/accounts/account-options.tsx";
import {
  CountedTextField,
  Form,
  MoneyField,
  MoreFields,
  SelectField,
  TextField,
} from "@/components/form/form.tsx";
import { Review, StepActions, StepTitle } from "@/components/send-money/send-steps.tsx";
import { Button } from "@/components/ui/button.tsx";
import { CardBody, TitledCard } from "@/components/ui/card.tsx";
import { Money } from "@/components/ui/money.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { useSendSteps } from "@/hooks/use-send-steps.ts";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { evaluate, type PolicySet, type Requirement } from "@/lib/approvals/policy.ts";
import { FROM_DESCRIPTION_FIELDS, SEN_TRANSFER_FIELDS, TO_DESCRIPTION_FIELDS } from "@/lib/bank-api/rules.ts";
import { sendJson } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type {
  SenTransferInput,
  SenTransferRequest,
  SenTransferResponse,
} from "@/lib/dashboard-api/transfers.ts";
import { typedDollarsToCents } from "@/lib/form-rules/typed-dollars.ts";
import { formatUsd } from "@/lib/format/money.ts";

// The route handler's schema (and zod with it) loads when the form is first used, not with the page.
const loadSchema = () =>
  import("@/lib/dashboard-api/transfers.ts").then((m): typeof SenTransferRequest => m.SenTransferRequest);

const STORAGE = "treasury.sen-transfer";

type SenTextName = Exclude<keyof typeof SEN_TRANSFER_FIELDS, "Amount">;

/** One text field of the transfer, limited as the contract limits it. */
function SenText({ field, label }: { field: SenTextName; label: string }) {
  return <CountedTextField name={field} label={label} max={SEN_TRANSFER_FIELDS[field].max} />;
}

/** The optional lines behind "More description lines and serial numbers", in the order shown. */
const MORE_FIELDS: [field: SenTextName, label: string][] = [
  ...FROM_DESCRIPTION_FIELDS.slice(1).map((f, i): [SenTextName, string] => [
    f,
    `Your account, line ${i + 3}`,
  ]),
  ...TO_DESCRIPTION_FIELDS.slice(1).map((f, i): [SenTextName, string] => [
    f,
    `Receiving account, line ${i + 3}`,
  ]),
  ["SerialNumber1", "Serial number 1"],
  ["SerialNumber2", "Serial number 2"],
];

const EMPTY: SenTransferInput = {
  idempotencyKey: "",
  AccountNumberFrom: "",
  AccountNumberTo: "",
  Amount: "",
  SerialNumber1: "",
  SerialNumber2: "",
  ...Object.fromEntries([...FROM_DESCRIPTION_FIELDS, ...TO_DESCRIPTION_FIELDS].map((f) => [f, ""])),
};

/** What the server's evaluator will require of this transfer: none to send it alone, else a draft. */
export function senTransferNeeds(
  amountCents: number,
  fromAccount: string,
  o: {
    policies: PolicySet;
    preparerId: string;
    today: { byPreparerCents: number; byAccountCents: Record<string, number> };
  },
  now = Date.now(),
): Requirement {
  if (amountCents <= 0) return { approvers: 0, policy: null, why: "" };
  return evaluate(
    {
      rail: "sen",
      amountCents,
      sourceAccount: fromAccount,
      preparerId: o.preparerId,
      todayByPreparerCents: o.today.byPreparerCents,
      todayByAccountCents: o.today.byAccountCents[fromAccount] ?? 0,
    },
    o.policies,
    now,
  );
}

/**
 * `policies` and `today` (what this preparer, and each account, sent alone today) are the server's
 * as the page was drawn: the form asks the same evaluator the server asks when it is sent.
 */
export function SenTransferForm({
  policies,
  preparerId,
  today,
}: {
  policies: PolicySet;
  preparerId: string;
  today: { byPreparerCents: number; byAccountCents: Record<string, number> };
}) {
  const queryClient = useQueryClient();
  const accounts = useQuery(accountsQuery());
  const senAccounts = (accounts.data?.accounts ?? []).filter((a) => a.type === "SEN");
  const form = useZodForm(loadSchema, { defaultValues: EMPTY });
  const [result, setResult] = useState<SenTransferResponse | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const steps = useSendSteps<SenTransferInput>(STORAGE, form, {
    onResumed: () =>
      setNotice(
        "This transfer was confirmed before the page reloaded. Confirm again to see its result: it cannot move money twice.",
      ),
  });
  const { stage } = steps;

  const values = useWatch({ control: form.control }) as SenTransferInput;
  const amountCents = typedDollarsToCents(String(values.Amount ?? "")) ?? 0;
  const from = senAccounts.find((a) => a.accountNumber === values.AccountNumberFrom);
  const to = senAccounts.find((a) => a.accountNumber === values.AccountNumberTo?.trim());
  const overAvailable = !!from && amountCents > from.availableCents;
  const needs = senTransferNeeds(amountCents, values.AccountNumberFrom ?? "", {
    policies,
    preparerId,
    today,
  });
  const needsRelease = needs.approvers > 0;

  async function onSubmit() {
    if (stage === "edit") {
      setNotice(null);
      steps.setStage("review");
      return;
    }
    // Refused (400, 422, 409): nothing moved.
    await steps.confirm(
      (raw) => sendJson<typeof SenTransferResponse>("POST", "/api/transfers", raw),
      [400, 422, 409],
      (r) => {
        setResult(r);
        void queryClient.invalidateQueries({ queryKey: queryKeys.accounts() });
        if (r.outcome === "draft") void queryClient.invalidateQueries({ queryKey: queryKeys.drafts() });
      },
    );
  }

  function startOver() {
    steps.startOver(EMPTY);
    setResult(null);
    setNotice(null);
  }

  if (stage === "done" && result) {
    return (
      <TitledCard
        id="transfer-done"
        title={
          <StepTitle ref={steps.headingRef}>
            {result.outcome === "completed" ? "Transfer complete" : "Sent for release"}
          </StepTitle>
        }
      >
        <CardBody className="flex flex-col gap-3 text-sm">
          {result.outcome === "completed" ? (
            <>
              <p role="status">
                <Money cents={result.amountCents} /> moved from {result.from} to {result.to}.
                {result.foundByLookup
                  ? " The bank did not answer at first; the transfer was found in the account's history."
                  : ""}
              </p>
              {result.fromAvailableCents !== null ? (
                <p>
                  Available in {result.from} now:{" "}
                  <strong data-testid="new-available">
                    <Money cents={result.fromAvailableCents} />
                  </strong>
                </p>
              ) : null}
              {result.messages.length ? (
                <p className="text-slate-600">Bank: {result.messages.join(" ")}</p>
              ) : null}
            </>
          ) : (
            <p role="status">
              <Money cents={result.draft.amountCents} /> needs an approver (
              {result.draft.approvalPolicy ?? "the approval policy"}): it waits as a draft until another
              person with release rights releases it on the{" "}
              <Link href="/drafts" className="font-medium text-brand-700 underline">
                Drafts
              </Link>{" "}
              page.
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button onClick={startOver}>New transfer</Button>
            <Link
              href="/accounts"
              className="inline-flex h-10 items-center px-2 font-medium text-brand-700 underline"
            >
              Back to accounts
            </Link>
          </div>
        </CardBody>
      </TitledCard>
    );
  }

  return (
    <Form form={form} onSubmit={onSubmit} fieldNames={{}} aria-label="SEN transfer">
      {stage === "edit" ? (
        <TitledCard
          id="transfer-edit"
          title={<StepTitle ref={steps.headingRef}>Transfer details</StepTitle>}
          description="Moves money at once between SEN accounts. Nothing moves until you confirm on the next step."
        >
          <CardBody className="grid gap-4 md:grid-cols-2">
            <SelectField
              name="AccountNumberFrom"
              label="From account"
              hint={accounts.isPending ? "Loading your accounts…" : undefined}
            >
              <option value="">Choose a SEN account</option>
              <AccountOptions accounts={senAccounts} available />
            </SelectField>
            <TextField
              name="AccountNumberTo"
              label="To account"
              list="sen-accounts"
              autoComplete="off"
              inputMode="numeric"
              hint="One of your SEN accounts, or another customer's SEN account number."
            />
            <datalist id="sen-accounts">
              {senAccounts.map((a) => (
                <option key={a.accountNumber} value={a.accountNumber}>
                  {a.name}
                </option>
              ))}
            </datalist>
            <MoneyField
              name="Amount"
              label="Amount (USD)"
              hint={
                overAvailable
                  ? `More than the ${formatUsd(from.availableCents)} available in ${from.name}: the bank will refuse it unless funds arrive first.`
                  : needsRelease
                    ? `${needs.why}: this becomes a draft that another person releases.`
                    : from
                      ? `${formatUsd(from.availableCents)} available.`
                      : undefined
              }
            />
            <div className="hidden md:block" />
            <SenText field="AccountFromDescription2" label="Description on your account" />
            <SenText field="AccountToDescription2" label="Description for the receiving account" />
            <MoreFields summary="More description lines and serial numbers">
              {MORE_FIELDS.map(([field, label]) => (
                <SenText key={field} field={field} label={label} />
              ))}
            </MoreFields>
            <div className="flex flex-col gap-3 md:col-span-2">
              <StepActions>Review transfer</StepActions>
            </div>
          </CardBody>
        </TitledCard>
      ) : (
        <TitledCard
          id="transfer-review"
          title={<StepTitle ref={steps.headingRef}>Review the transfer</StepTitle>}
          description={
            needsRelease
              ? "Above the release threshold: confirming makes a draft for another person to release."
              : "Confirming moves the money at once."
          }
        >
          <CardBody className="flex flex-col gap-4 text-sm">
            {notice ? (
              <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
                {notice}
              </p>
            ) : null}
            <Review.List>
              <Review.Row term="From" account={from}>
                {values.AccountNumberFrom}
              </Review.Row>
              <Review.Row term="To" account={to}>
                {values.AccountNumberTo}
              </Review.Row>
              <Review.Amount cents={amountCents} testId="review-amount" />
              <HistoryPreview
                label="Your history will read"
                first={`SEN to ${values.AccountNumberTo}`}
                lines={FROM_DESCRIPTION_FIELDS.map((f) => values[f])}
              />
              <HistoryPreview
                label="The receiving history will read"
                first={`SEN from ${values.AccountNumberFrom}`}
                lines={TO_DESCRIPTION_FIELDS.map((f) => values[f])}
              />
            </Review.List>
            <StepActions
              onBack={() => {
                setNotice(null);
                steps.edit();
              }}
              busyLabel="Sending…"
            >
              {needsRelease ? "Confirm draft" : "Confirm transfer"}
            </StepActions>
          </CardBody>
        </TitledCard>
      )}
    </Form>
  );
}

/** One side's history line as the review shows it: the transfer, then its description lines. */
function HistoryPreview({ label, first, lines }: { label: string; first: string; lines: unknown[] }) {
  return (
    <Review.Row term={label}>
      {first}
      {lines.filter(Boolean).map((l) => (
        <span key={String(l)} className="block text-slate-600">
          {String(l)}
        </span>
      ))}
    </Review.Row>
  );
}
