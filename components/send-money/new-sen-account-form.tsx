"use client";
// Opening a SEN account (createsen): the expected amounts in whole dollars, 1 to 999,999,999,
// and up to four title lines; the new account joins the accounts list without a reload.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import { Card, CardBody, CardHeader } from "@/components/ui/card.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { CREATE_SEN_FIELDS } from "@/lib/bank-api/rules.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import type { CreateSenAccountRequest, CreateSenAccountResponse } from "@/lib/dashboard-api/sen-accounts.ts";

// The schema (and zod with it) loads when the form is first used, not with the page.
const loadSchema = () =>
  import("@/lib/dashboard-api/sen-accounts.ts").then(
    (m): typeof CreateSenAccountRequest => m.CreateSenAccountRequest,
  );

const EMPTY = {
  ExpectedBalance: "",
  ExpectedIncomingAmtMonth: "",
  ExpectedOutgoingAmtMonth: "",
  AltTitleLine1: "",
  AltTitleLine2: "",
  AltTitleLine3: "",
  AltTitleLine4: "",
};

export function NewSenAccountForm() {
  const queryClient = useQueryClient();
  const form = useZodForm(loadSchema, { defaultValues: EMPTY });
  const [opened, setOpened] = useState<{ accountNumber: string; message: string } | null>(null);
  const dollars = {
    inputMode: "numeric" as const,
    autoComplete: "off",
    hint: "Whole dollars, 1 to 999,999,999.",
  };
  return (
    <Card aria-labelledby="new-sen">
      <CardHeader
        id="new-sen"
        title="Open a SEN account"
        description="The bank asks what you expect the account to hold and move each month."
      />
      <CardBody>
        {opened ? (
          <div
            role="status"
            className="mb-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900"
          >
            Account {opened.accountNumber} is open. {opened.message}{" "}
            <Link className="font-medium underline" href={`/accounts/${opened.accountNumber}`}>
              Open it
            </Link>
          </div>
        ) : null}
        <Form
          form={form}
          className="grid gap-4 md:grid-cols-3"
          onSubmit={async () => {
            const r = await apiFetch<typeof CreateSenAccountResponse>("/api/accounts/sen", {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify(form.getValues()),
            });
            setOpened(r);
            form.reset(EMPTY);
            await queryClient.invalidateQueries({ queryKey: queryKeys.accounts() });
          }}
        >
          <TextField name="ExpectedBalance" label="Expected balance ($)" {...dollars} />
          <TextField name="ExpectedIncomingAmtMonth" label="Expected incoming per month ($)" {...dollars} />
          <TextField name="ExpectedOutgoingAmtMonth" label="Expected outgoing per month ($)" {...dollars} />
          <fieldset className="grid gap-4 md:col-span-3 md:grid-cols-2">
            <legend className="mb-2 text-sm font-medium text-slate-700">
              Title lines (optional: the customer's legal title is used when empty)
            </legend>
            {(["AltTitleLine1", "AltTitleLine2", "AltTitleLine3", "AltTitleLine4"] as const).map((f, i) => (
              <TextField
                key={f}
                name={f}
                label={`Title line ${i + 1}`}
                maxLength={CREATE_SEN_FIELDS[f].max}
                autoComplete="off"
              />
            ))}
          </fieldset>
          <FormAlert className="md:col-span-3" />
          <div className="md:col-span-3">
            <SubmitButton busyLabel="Opening…">Open SEN account</SubmitButton>
          </div>
        </Form>
      </CardBody>
    </Card>
  );
}
