"use client";
// /alerts: one balance-alert rule per account — "available balance below X" and/or "above Y",
// who is told (signed-in users, e-mail addresses). Each line fires once when the balance crosses
// it and re-arms when it comes back; the page shows which lines are waiting to re-arm.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  CheckboxField,
  Form,
  FormAlert,
  MoneyField,
  SubmitButton,
  TextareaField,
} from "@/components/form/form.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardBody, CardHeader } from "@/components/ui/card.tsx";
import { ConfirmDialog } from "@/components/ui/dialog.tsx";
import { QueryErrorState } from "@/components/ui/error-state.tsx";
import { Placeholders } from "@/components/ui/skeleton.tsx";
import { useToast } from "@/components/ui/toast.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { centsToDecimal, formatUsd } from "@/lib/bank-api/money.ts";
import type {
  AlertRule,
  AlertRuleFormSchema,
  AlertRulesResponseSchema,
  DeleteRuleResponseSchema,
  SaveRuleResponseSchema,
} from "@/lib/dashboard-api/alerts.ts";
import { apiFetch, failureMessage } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { alertAudience, alertSetTitle } from "@/lib/format/alert-words.ts";
import { accountInWords } from "@/lib/format/money.ts";

// The form's schema comes with the contract's checks (and zod): loaded when the form is first used.
const loadAlertRuleFormSchema = () =>
  import("@/lib/dashboard-api/alerts.ts").then((m): typeof AlertRuleFormSchema => m.AlertRuleFormSchema);

type Account = { accountNumber: string; name: string; availableCents: number | null };

export function AlertRules({ canWrite }: { canWrite: boolean }) {
  const list = useQuery({
    queryKey: queryKeys.alertRules(),
    queryFn: ({ signal }) => apiFetch<typeof AlertRulesResponseSchema>("/api/alerts", { signal }),
  });
  if (list.isPending)
    return <Placeholders className="grid gap-4 lg:grid-cols-2" heights={["h-72", "h-72"]} />;
  if (list.isError) return <QueryErrorState title="Alerts could not be loaded" query={list} />;
  const rules = new Map(list.data.rules.map((r) => [r.accountNumber, r]));
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        {list.data.emailDelivery === "smtp"
          ? "E-mail goes out from the dashboard once per alert."
          : "Without a dashboard mail server, the bank e-mails a rule's addresses at every balance change of the account (its webhook e-mail); signed-in users get one alert per crossing."}
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        {list.data.accounts.map((a) => (
          <RuleCard
            key={a.accountNumber}
            account={a}
            rule={rules.get(a.accountNumber) ?? null}
            canWrite={canWrite}
          />
        ))}
      </div>
    </div>
  );
}

const dollars = (cents: number | null) => (cents === null ? "" : centsToDecimal(cents));

/** One line of a rule: armed, or crossed and waiting for the balance to come back. */
function Crossing({
  line,
  cents,
  armed,
  rearms,
}: {
  line: "Below" | "Above";
  cents: number;
  armed: boolean;
  rearms: "above" | "below";
}) {
  return (
    <li className="flex flex-wrap items-center gap-2">
      {line} {formatUsd(cents)}
      {armed ? (
        <Badge tone="success">Armed</Badge>
      ) : (
        <Badge tone="warning">
          {line} now · re-arms {rearms}
        </Badge>
      )}
    </li>
  );
}

function RuleSummary({ rule }: { rule: AlertRule }) {
  return (
    <ul className="space-y-1 text-sm">
      {rule.belowCents !== null ? (
        <Crossing line="Below" cents={rule.belowCents} armed={rule.belowArmed} rearms="above" />
      ) : null}
      {rule.aboveCents !== null ? (
        <Crossing line="Above" cents={rule.aboveCents} armed={rule.aboveArmed} rearms="below" />
      ) : null}
      <li className="text-slate-700">
        Tells {rule.notifyUsers ? "signed-in users" : "no one in the app"}
        {rule.emails ? ` and ${rule.emails}` : ""}
      </li>
    </ul>
  );
}

function RuleCard({
  account,
  rule,
  canWrite,
}: {
  account: Account;
  rule: AlertRule | null;
  canWrite: boolean;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [confirm, setConfirm] = useState(false);
  const headingId = `rule-${account.accountNumber}`;
  const form = useZodForm(loadAlertRuleFormSchema, {
    defaultValues: {
      below: dollars(rule?.belowCents ?? null),
      above: dollars(rule?.aboveCents ?? null),
      notifyUsers: rule?.notifyUsers ?? true,
      emails: rule?.emails ?? "",
    },
  });
  const remove = useMutation({
    mutationFn: () =>
      apiFetch<typeof DeleteRuleResponseSchema>(`/api/alerts/${account.accountNumber}`, { method: "DELETE" }),
    onSuccess: () => {
      setConfirm(false);
      form.reset({ below: "", above: "", notifyUsers: true, emails: "" });
      toast({ title: "Alert removed", body: `${accountInWords(account.accountNumber, account.name)}.` });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.alertRules() }),
  });

  return (
    <Card aria-labelledby={headingId}>
      <CardHeader
        id={headingId}
        title={`${account.name} · ${account.accountNumber}`}
        description={
          account.availableCents === null ? undefined : `Available now ${formatUsd(account.availableCents)}`
        }
      />
      <CardBody className="space-y-4">
        {rule ? (
          <RuleSummary rule={rule} />
        ) : (
          <p className="text-sm text-slate-700">No alert on this account.</p>
        )}
        {canWrite ? (
          <Form
            form={form}
            aria-labelledby={headingId}
            onSubmit={async (values) => {
              const saved = await apiFetch<typeof SaveRuleResponseSchema>(
                `/api/alerts/${account.accountNumber}`,
                {
                  method: "PUT",
                  headers: { "Content-Type": "application/json" },
                  body: JSON.stringify(values),
                },
              );
              toast({
                title: alertSetTitle(account.name, account.accountNumber, saved.rule),
                body: alertAudience(saved.rule),
              });
              await queryClient.invalidateQueries({ queryKey: queryKeys.alertRules() });
            }}
            className="grid gap-4 sm:grid-cols-2"
          >
            <FormAlert className="sm:col-span-2" />
            <MoneyField name="below" label="Alert when below ($)" hint="Leave empty for no low line" />
            <MoneyField name="above" label="Alert when above ($)" hint="Leave empty for no high line" />
            <CheckboxField
              name="notifyUsers"
              label="Tell signed-in users"
              hint="A toast and an entry in Notifications"
              className="sm:col-span-2"
            />
            <TextareaField
              name="emails"
              label="E-mail addresses"
              hint="Separate addresses with commas"
              rows={2}
              className="sm:col-span-2"
            />
            <div className="flex flex-wrap gap-2 sm:col-span-2">
              <SubmitButton busyLabel="Saving…">{rule ? "Save alert" : "Set alert"}</SubmitButton>
              {rule ? (
                <Button variant="secondary" type="button" onClick={() => setConfirm(true)}>
                  Remove alert
                </Button>
              ) : null}
            </div>
          </Form>
        ) : null}
      </CardBody>
      <ConfirmDialog
        open={confirm}
        onClose={() => setConfirm(false)}
        title="Remove this alert?"
        description={`The balance alert on ${account.name} (${account.accountNumber}) stops, with its e-mail.`}
        error={remove.error && failureMessage(remove.error, "The alert could not be removed.")}
        pending={remove.isPending}
        cancelLabel="Keep it"
        actionLabel="Remove alert"
        busyLabel="Removing…"
        onAction={() => remove.mutate()}
        danger
      />
    </Card>
  );
}
