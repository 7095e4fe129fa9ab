"use client";
// /webhooks: the bank's webhooks of every account, a form to register one (a URL and/or e-mail
// addresses) and deletion behind a confirmation that names the webhook. The dashboard's own
// webhooks (live balances, a balance alert's e-mail) are marked and have no delete button.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { AccountOptions } from "@/components/accounts/account-options.tsx";
import { Form, FormAlert, SelectField, SubmitButton, TextField } from "@/components/form/form.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { CardBody, TitledCard } from "@/components/ui/card.tsx";
import { ConfirmDialog } from "@/components/ui/dialog.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { QueryErrorState } from "@/components/ui/error-state.tsx";
import { Placeholders } from "@/components/ui/skeleton.tsx";
import { ActionsTh, Table, Td, Th, Tr } from "@/components/ui/table.tsx";
import { useToast } from "@/components/ui/toast.tsx";
import { useConfirmedAction } from "@/hooks/use-confirmed-action.ts";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import type {
  DeleteWebhookResponseSchema,
  RegisterWebhookResponseSchema,
  RegisterWebhookSchema,
  WebhooksResponseSchema,
  WebhookView,
} from "@/lib/dashboard-api/alerts.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { accountInWords } from "@/lib/format/money.ts";

// The form's schema comes with the contract's checks (and zod): loaded when the form is first used.
const loadRegisterWebhookSchema = () =>
  import("@/lib/dashboard-api/alerts.ts").then((m): typeof RegisterWebhookSchema => m.RegisterWebhookSchema);

const OWNER_LABEL = { live: "Live balances", "alert-email": "Alert e-mail" } as const;

/** What a person calls a webhook: its description, else where it goes. */
function webhookName(h: WebhookView): string {
  return h.description || h.url || h.emails || h.id;
}

export function WebhooksManager({ canWrite }: { canWrite: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const list = useQuery({
    queryKey: queryKeys.webhooks(),
    queryFn: ({ signal }) => apiFetch<typeof WebhooksResponseSchema>("/api/webhooks", { signal }),
  });
  const names = new Map((list.data?.accounts ?? []).map((a) => [a.accountNumber, a.name]));
  const account = (n: string) => accountInWords(n, names.get(n));
  const remove = useConfirmedAction({
    mutationFn: (h: WebhookView) =>
      apiFetch<typeof DeleteWebhookResponseSchema>(`/api/webhooks/${encodeURIComponent(h.id)}`, {
        method: "DELETE",
      }),
    failure: "The webhook could not be deleted.",
    onSuccess: (_, h) => {
      toast({ title: "Webhook deleted", body: `“${webhookName(h)}” on ${account(h.accountNumber)}.` });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks() }),
  });

  // One button for the phone list and the table, named in full for a screen reader.
  const deleteButton = (h: WebhookView) => (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => remove.ask(h)}
      aria-label={`Delete webhook “${webhookName(h)}” on ${account(h.accountNumber)}`}
    >
      Delete
    </Button>
  );

  if (list.isPending) return <Placeholders className="space-y-4" heights={["h-40", "h-64"]} />;
  if (list.isError) return <QueryErrorState title="Webhooks could not be loaded" query={list} />;

  const { accounts, webhooks } = list.data;
  return (
    <div className="space-y-6">
      <TitledCard
        id="webhooks-list"
        title="Registered webhooks"
        description="The bank calls each URL and e-mails each address when the account's balance changes."
      >
        <div>
          {webhooks.length === 0 ? (
            <div className="p-5">
              <EmptyState title="No webhooks yet">Register one below.</EmptyState>
            </div>
          ) : (
            <>
              {/* Phones get a list: the table's long addresses would not fit beside each other. */}
              <ul className="divide-y divide-slate-100 md:hidden" aria-label="Webhooks by account">
                {webhooks.map((h) => (
                  <li key={h.id} className="space-y-1 px-5 py-4 text-sm">
                    <p>
                      <span className="font-medium">{names.get(h.accountNumber) ?? "Account"}</span>{" "}
                      <span className="font-mono text-xs text-slate-600">{h.accountNumber}</span>
                    </p>
                    <p>{h.description || <span className="text-slate-600">No description</span>}</p>
                    {h.owner !== "other" ? (
                      <Badge tone="brand">Dashboard · {OWNER_LABEL[h.owner]}</Badge>
                    ) : null}
                    {h.url ? <p className="break-all text-slate-800">{h.url}</p> : null}
                    {h.emails ? <p className="break-all text-slate-700">{h.emails}</p> : null}
                    {h.sms ? <p className="text-slate-700">SMS {h.sms} (stored, not sent)</p> : null}
                    {canWrite && h.owner === "other" ? deleteButton(h) : null}
                  </li>
                ))}
              </ul>
              <div className="hidden md:block">
                <Table caption="Webhooks by account" captionHidden>
                  <thead>
                    <tr>
                      <Th>Account</Th>
                      <Th>Description</Th>
                      <Th>Delivers to</Th>
                      <Th>SMS</Th>
                      <ActionsTh />
                    </tr>
                  </thead>
                  <tbody>
                    {webhooks.map((h) => (
                      <Tr key={h.id}>
                        <Td className="align-top whitespace-nowrap">
                          <span className="font-medium">{names.get(h.accountNumber) ?? "Account"}</span>
                          <br />
                          <span className="font-mono text-xs text-slate-600">{h.accountNumber}</span>
                        </Td>
                        <Td className="align-top">
                          {h.description || <span className="text-slate-600">—</span>}
                          {h.owner !== "other" ? (
                            <div className="mt-1">
                              <Badge tone="brand">Dashboard · {OWNER_LABEL[h.owner]}</Badge>
                            </div>
                          ) : null}
                        </Td>
                        <Td className="max-w-md align-top break-all">
                          {h.url ? <div>{h.url}</div> : null}
                          {h.emails ? <div className="text-slate-700">{h.emails}</div> : null}
                        </Td>
                        <Td className="align-top">
                          {h.sms ? (
                            <>
                              {h.sms}
                              <div className="text-xs text-slate-600">stored, not sent</div>
                            </>
                          ) : (
                            <span className="text-slate-600">—</span>
                          )}
                        </Td>
                        <Td className="text-right align-top">
                          {!canWrite ? null : h.owner === "other" ? (
                            deleteButton(h)
                          ) : (
                            <span className="text-xs text-slate-600">
                              {h.owner === "live" ? "Kept by the dashboard" : "Change it on Alerts"}
                            </span>
                          )}
                        </Td>
                      </Tr>
                    ))}
                  </tbody>
                </Table>
              </div>
            </>
          )}
        </div>
      </TitledCard>

      {canWrite ? (
        <RegisterWebhook accounts={accounts} />
      ) : (
        <p className="text-sm text-slate-700">Your role can see webhooks but not change them.</p>
      )}

      <ConfirmDialog
        {...remove.dialog}
        title="Delete this webhook?"
        description={
          remove.item
            ? `“${webhookName(remove.item)}” on ${account(remove.item.accountNumber)} will stop receiving balance changes.`
            : undefined
        }
        cancelLabel="Keep it"
        actionLabel="Delete webhook"
        busyLabel="Deleting…"
        danger
      />
    </div>
  );
}

function RegisterWebhook({ accounts }: { accounts: { accountNumber: string; name: string }[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm(loadRegisterWebhookSchema, {
    defaultValues: { accountNumber: accounts[0]?.accountNumber ?? "", description: "", url: "", emails: "" },
  });
  return (
    <TitledCard
      id="webhook-register"
      title="Register a webhook"
      description="A URL the bank posts to, e-mail addresses it writes to, or both."
    >
      <CardBody>
        <Form
          form={form}
          aria-labelledby="webhook-register"
          onSubmit={async (values) => {
            const r = await apiFetch<typeof RegisterWebhookResponseSchema>("/api/webhooks", {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify(values),
            });
            const name = accounts.find((a) => a.accountNumber === r.webhook.accountNumber)?.name;
            toast({
              title: "Webhook registered",
              body: `On ${accountInWords(r.webhook.accountNumber, name)}.`,
            });
            form.reset({ ...values, description: "", url: "", emails: "" });
            await queryClient.invalidateQueries({ queryKey: queryKeys.webhooks() });
          }}
          className="grid gap-4 md:grid-cols-2"
        >
          <FormAlert className="md:col-span-2" />
          <SelectField name="accountNumber" label="Account">
            <AccountOptions accounts={accounts} />
          </SelectField>
          <TextField
            name="description"
            label="Description"
            hint="For your own reference"
            autoComplete="off"
          />
          <TextField
            name="url"
            label="URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://erp.example.com/bank-events"
            hint="http:// or https://"
          />
          <TextField
            name="emails"
            label="E-mail addresses"
            autoComplete="off"
            placeholder="treasury@example.com, cfo@example.com"
            hint="Separate addresses with commas"
          />
          <div className="md:col-span-2">
            <SubmitButton busyLabel="Registering…">Register webhook</SubmitButton>
          </div>
        </Form>
      </CardBody>
    </TitledCard>
  );
}
