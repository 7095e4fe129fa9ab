"use client";
// The payments page: every account's wires, or one's, over a range the form keeps within the bank's 32 days,
// filtered by direction and status, sorted and paged; each payment opens its full record.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Form, FormAlert, SelectField, SubmitButton, TextField } from "@/components/form/form.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button, buttonClasses } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Table, Td, Th, Tr } from "@/components/ui/table.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { addDays } from "@/lib/bank-api/dates.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { PaymentsQuery, PaymentsResponse } from "@/lib/dashboard-api/payments.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { ALL_ACCOUNTS, PAYMENT_PAGE_SIZES, PAYMENT_SORTS } from "@/lib/form-rules/send-money-fields.ts";
import { formatDay } from "@/lib/format/dates.ts";
import { PAYMENT_STATUS_CHOICES, paymentMovesMoney, paymentStatusWords } from "@/lib/format/status-words.ts";

// The filters' schema (and zod with it) loads when the form is first used, not with the page.
const loadSchema = () =>
  import("@/lib/dashboard-api/payments.ts").then((m): typeof PaymentsQuery => m.PaymentsQuery);

/** The filters as the form holds them: every field's text (the route handler reads numbers). */
type Filters = Required<PaymentsQuery>;

const SORT_WORDS: Record<(typeof PAYMENT_SORTS)[number], string> = {
  "date-desc": "Newest first",
  "date-asc": "Oldest first",
  "amount-desc": "Largest first",
  "amount-asc": "Smallest first",
};

/** The CSV of every payment the filters match (all pages), in the list's order. */
function exportHref(f: Filters): string {
  const { page: _page, pageSize: _size, ...filter } = f;
  return `/api/payments/export?${new URLSearchParams(filter)}`;
}

export function PaymentsView({ today, initialAccount }: { today: string; initialAccount?: string }) {
  const accounts = useQuery(accountsQuery());
  const defaults: Filters = {
    // Every account at once unless the address names one: nobody lands on an empty first account.
    account: initialAccount ?? ALL_ACCOUNTS,
    from: addDays(today, -30),
    to: today,
    direction: "all",
    status: "all",
    sort: "date-desc",
    page: "1",
    pageSize: "25",
  };
  // The list loads at once, beside the account list rather than after it.
  const [applied, setApplied] = useState<Filters | null>(defaults);
  const form = useZodForm(loadSchema, { defaultValues: defaults });
  const accountName = (n: string) => accounts.data?.accounts.find((a) => a.accountNumber === n)?.name;

  const payments = useQuery({
    queryKey: queryKeys.paymentsList(applied),
    enabled: !!applied,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiFetch<typeof PaymentsResponse>(`/api/payments?${new URLSearchParams(applied as Filters)}`, {
        signal,
      }),
  });

  const data = payments.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const goTo = (page: number) => applied && setApplied({ ...applied, page: String(page) });

  return (
    <div className="flex flex-col gap-4">
      <Card aria-labelledby="payments-filters">
        <CardHeader id="payments-filters" title="Which payments" />
        <Form
          form={form}
          className="grid gap-4 px-5 py-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.35fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.1fr)]"
          onSubmit={() => setApplied({ ...(form.getValues() as Filters), page: "1" })}
        >
          <SelectField name="account" label="Account">
            <option value={ALL_ACCOUNTS}>All accounts</option>
            {(accounts.data?.accounts ?? []).map((a) => (
              <option key={a.accountNumber} value={a.accountNumber}>
                {a.name} · {a.accountNumber}
              </option>
            ))}
          </SelectField>
          <TextField name="from" label="From" type="date" hint="At most 32 days before the end date." />
          <TextField name="to" label="To" type="date" />
          <SelectField name="direction" label="Direction">
            <option value="all">Incoming and outgoing</option>
            <option value="outgoing">Outgoing</option>
            <option value="incoming">Incoming</option>
          </SelectField>
          <SelectField name="status" label="Status">
            <option value="all">Any status</option>
            {PAYMENT_STATUS_CHOICES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.word}
              </option>
            ))}
          </SelectField>
          <SelectField name="sort" label="Order">
            {PAYMENT_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_WORDS[s]}
              </option>
            ))}
          </SelectField>
          <SelectField name="pageSize" label="Per page">
            {PAYMENT_PAGE_SIZES.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </SelectField>
          <div className="flex items-end">
            <SubmitButton>Show payments</SubmitButton>
          </div>
          <FormAlert className="sm:col-span-2 lg:col-span-4" />
        </Form>
      </Card>

      {payments.isError ? (
        <ErrorState
          message={payments.error.message}
          onRetry={() => void payments.refetch()}
          retrying={payments.isFetching}
        />
      ) : (
        <Card aria-labelledby="payments-list" aria-busy={payments.isFetching || undefined}>
          <CardHeader
            id="payments-list"
            title="Payments"
            description={
              data
                ? `${data.total.toLocaleString("en-US")} payment${data.total === 1 ? "" : "s"} from ${formatDay(data.from)} to ${formatDay(data.to)}`
                : undefined
            }
            action={
              data && data.total > 0 && applied ? (
                <a href={exportHref(applied)} download className={buttonClasses("secondary", "sm")}>
                  Export CSV
                </a>
              ) : null
            }
          />
          {!data ? (
            <p className="px-5 py-6 text-sm text-slate-600">
              {accounts.isPending || payments.isFetching ? "Loading payments…" : "Choose an account."}
            </p>
          ) : data.payments.length === 0 ? (
            <EmptyState title="No payments in this range">
              Widen the dates (up to 32 days at a time) or clear the filters. To send one, use{" "}
              <Link className="text-brand-700 underline" href="/wires/new">
                Send a wire
              </Link>
              .
            </EmptyState>
          ) : (
            <>
              <Table
                caption={
                  data.account === ALL_ACCOUNTS
                    ? "Payments of every account"
                    : `Payments of account ${data.account}`
                }
                captionHidden
              >
                <thead>
                  <Tr>
                    {/* On a phone: the payment (its date, direction and counterparty below) and the amount (its status below). */}
                    <Th className="hidden md:table-cell">Date</Th>
                    <Th>Payment</Th>
                    <Th className="hidden md:table-cell">Direction</Th>
                    <Th className="hidden md:table-cell">Counterparty</Th>
                    <Th className="hidden md:table-cell">Status</Th>
                    <Th className="text-right">Amount</Th>
                  </Tr>
                </thead>
                <tbody>
                  {data.payments.map((p) => (
                    <Tr key={p.paymentId}>
                      <Td className="hidden whitespace-nowrap md:table-cell">{formatDay(p.date)}</Td>
                      <Td>
                        <Link
                          className="font-medium text-brand-700 underline"
                          href={`/payments/${encodeURIComponent(p.paymentId)}?account=${encodeURIComponent(p.account)}`}
                        >
                          {p.paymentId}
                        </Link>
                        <span className="block text-xs text-slate-600 md:hidden">
                          {formatDay(p.date)} · {p.direction}
                          {p.counterparty ? ` · ${p.counterparty}` : ""}
                        </span>
                        {data.account === ALL_ACCOUNTS ? (
                          <span className="block text-xs text-slate-600">
                            {accountName(p.account) ?? "Account"} · {p.account}
                          </span>
                        ) : null}
                      </Td>
                      <Td className="hidden md:table-cell">{p.direction}</Td>
                      <Td className="hidden md:table-cell">
                        {p.counterparty || "—"}
                        {p.counterpartyAccount ? (
                          <span className="block text-xs text-slate-600">{p.counterpartyAccount}</span>
                        ) : null}
                      </Td>
                      <Td className="hidden md:table-cell">
                        <PaymentStatus status={p.status} direction={p.direction} />
                      </Td>
                      <Td className="text-right">
                        {/* A canceled wire moved no money: no sign, no colour of money in or out. */}
                        <Money
                          cents={p.amountCents}
                          direction={
                            !paymentMovesMoney(p.status)
                              ? undefined
                              : p.direction === "Outgoing"
                                ? "debit"
                                : "credit"
                          }
                          className={paymentMovesMoney(p.status) ? undefined : "text-slate-600"}
                        />
                        <span className="mt-1 block md:hidden">
                          <PaymentStatus status={p.status} direction={p.direction} />
                        </span>
                      </Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
              <nav aria-label="Pages" className="flex items-center justify-between gap-2 px-5 py-3 text-sm">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={data.page <= 1}
                  onClick={() => goTo(data.page - 1)}
                >
                  Previous
                </Button>
                <span>
                  Page {data.page} of {pages}
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={data.page >= pages}
                  onClick={() => goTo(data.page + 1)}
                >
                  Next
                </Button>
              </nav>
            </>
          )}
        </Card>
      )}
    </div>
  );
}

function PaymentStatus({ status, direction }: { status: string; direction: string }) {
  const { word, tone } = paymentStatusWords(status, direction);
  return (
    <Badge className="whitespace-nowrap" tone={tone}>
      {word}
    </Badge>
  );
}
