"use client";
// One payment as a story: a timeline of who prepared, corrected and released it and each status
// the bank gave it (times in the business time zone), then its fields in words in the
// specification's groups, then the account history entries that carry its id. The bank's raw
// record, with its wire names, is one click away.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Card, CardBody, CardHeader, TitledCard } from "@/components/ui/card.tsx";
import { ErrorState } from "@/components/ui/error-state.tsx";
import { Money } from "@/components/ui/money.tsx";
import { bicCountry, countryName } from "@/lib/bank-api/iban.ts";
import { PAYMENT_FIELD_GROUPS, type PaymentDetailField } from "@/lib/bank-api/payment-record-fields.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { PaymentDetailResponse } from "@/lib/dashboard-api/payments.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";
import { formatDay, formatInstant, timeZoneLabel } from "@/lib/format/dates.ts";
import { PAYMENT_INSTANT_FIELDS, paymentFieldWords } from "@/lib/format/payment-fields.ts";
import { paymentMovesMoney, paymentStatusWords } from "@/lib/format/status-words.ts";

/** How a party or bank is identified, in words (Fedwire's identifier codes). */
const ID_TYPES: Record<string, string> = {
  D: "Account number (D)",
  ABA: "ABA routing number",
  F: "ABA routing number (F)",
  SWIFT: "SWIFT BIC",
  B: "SWIFT BIC (B)",
  DDA: "Checking account (DDA)",
  SEN: "SEN account",
};

/** A field's value as a person reads it: statuses in the app's words, instants in the business zone, countries named. */
function valueInWords(field: PaymentDetailField, value: string, direction: string, timeZone: string): string {
  if (field === "payment_status") return paymentStatusWords(value, direction).word;
  // The bank's status timestamp is UTC without a zone mark (YYYY-MM-DD hh:mm:ss.fff).
  if (field === "time_stamp" && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(value))
    return formatInstant(`${value.replace(" ", "T")}Z`, timeZone);
  if (field.endsWith("_type") && ID_TYPES[value]) return ID_TYPES[value];
  if (PAYMENT_INSTANT_FIELDS.has(field)) return formatInstant(value, timeZone);
  if (field === "payment_date") return formatDay(value);
  if (field.endsWith("_country_code") && /^[A-Z]{2}$/.test(value)) return `${countryName(value)} (${value})`;
  if (field.endsWith("_swift_bic")) {
    const country = bicCountry(value);
    return country ? `${value} · ${country}` : value;
  }
  if (field === "source_indicator")
    return value === "I" ? "Incoming (I)" : value === "O" ? "Outgoing (O)" : value;
  return value;
}

export function PaymentDetail({ id, account }: { id: string; account: string }) {
  const timeZone = useBusinessTimeZone();
  const q = useQuery({
    queryKey: queryKeys.payment(account, id),
    queryFn: ({ signal }) =>
      apiFetch<typeof PaymentDetailResponse>(
        `/api/payments/${encodeURIComponent(id)}?account=${encodeURIComponent(account)}`,
        { signal },
      ),
  });
  if (q.isError)
    return <ErrorState message={q.error.message} onRetry={() => void q.refetch()} retrying={q.isFetching} />;
  if (!q.data) return <p className="text-sm text-slate-600">Loading the payment…</p>;
  const { record, amountCents, history, story } = q.data;
  const fields = record as unknown as Record<string, string | number>;
  const status = paymentStatusWords(record.payment_status, record.direction);
  const moved = paymentMovesMoney(record.payment_status);
  const counterparty = record.direction === "Outgoing" ? record.beneficiary_name : record.originator_name;
  return (
    <div className="flex flex-col gap-4">
      <Card aria-labelledby="payment-summary">
        <CardBody className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <h2 id="payment-summary" className="sr-only">
            Summary
          </h2>
          <p className="text-2xl font-semibold">
            <Money
              cents={amountCents}
              direction={!moved ? undefined : record.direction === "Outgoing" ? "debit" : "credit"}
            />
          </p>
          <Badge tone={status.tone}>{status.word}</Badge>
          <p className="text-sm text-slate-700">
            {record.direction} {record.direction === "Outgoing" ? "to" : "from"}{" "}
            <strong>{counterparty || "—"}</strong>
          </p>
        </CardBody>
      </Card>

      <TitledCard id="payment-timeline" title="Timeline" description={`Times in ${timeZoneLabel(timeZone)}`}>
        <CardBody>
          {story.length ? (
            <ol className="relative flex flex-col gap-4 border-l border-slate-200 pl-5">
              {story.map((s) => (
                <li key={`${s.at}-${s.title}-${s.who ?? ""}`} className="relative">
                  <span
                    aria-hidden="true"
                    className="absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full bg-brand-600 ring-4 ring-white"
                  />
                  <p className="text-sm font-medium text-slate-900">
                    {s.title}
                    {s.who ? <span className="font-normal text-slate-700"> by {s.who}</span> : null}
                  </p>
                  <p className="text-xs text-slate-600 tabular-nums">
                    <time dateTime={s.at}>{formatInstant(s.at, timeZone)}</time>
                  </p>
                  {s.note ? <p className="text-xs text-slate-700">{s.note}</p> : null}
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-slate-600">No steps recorded yet.</p>
          )}
        </CardBody>
      </TitledCard>

      <div className="grid gap-4 lg:grid-cols-2">
        {PAYMENT_FIELD_GROUPS.map((g) => {
          const shown = g.fields.filter((f) => f === "amount" || String(fields[f] ?? "") !== "");
          if (!shown.length) return null;
          const headingId = `fields-${g.title.toLowerCase().replace(/\W+/g, "-")}`;
          return (
            <Card key={g.title} aria-labelledby={headingId}>
              <CardHeader id={headingId} title={g.title} level={2} />
              <CardBody>
                <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(0,12rem)_1fr]">
                  {shown.map((f) => (
                    <div key={f} className="contents">
                      <dt className="pt-1 text-slate-600 sm:pt-0">{paymentFieldWords(f)}</dt>
                      <dd className="break-words">
                        {f === "amount" ? (
                          <Money cents={amountCents} />
                        ) : (
                          valueInWords(f, String(fields[f]), record.direction, timeZone)
                        )}
                      </dd>
                    </div>
                  ))}
                </dl>
              </CardBody>
            </Card>
          );
        })}
      </div>

      <TitledCard
        id="payment-history"
        title="In the account's history"
        description={history.length ? undefined : "Nothing yet: a wire reaches the history when it settles."}
      >
        {history.length ? (
          <CardBody>
            <ul className="flex flex-col gap-2 text-sm">
              {history.map((h) => (
                <li key={h.uniqueId} className="flex flex-wrap items-baseline gap-x-3">
                  <span>{formatDay(h.date)}</span>
                  <Money cents={h.amountCents} direction={h.direction} />
                  <span>{h.descriptions.join(" · ")}</span>
                  <Link
                    className="font-medium text-brand-700 underline"
                    href={`/accounts/${encodeURIComponent(account)}?from=${h.date}&to=${h.date}&q=${encodeURIComponent(id)}`}
                  >
                    Open in history
                  </Link>
                </li>
              ))}
            </ul>
          </CardBody>
        ) : null}
      </TitledCard>

      <details className="rounded-xl border border-slate-200 bg-white px-5 py-3">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">
          The bank's record as sent (wire names)
        </summary>
        <pre className="mt-3 max-h-[32rem] overflow-auto rounded-md bg-slate-50 p-3 text-xs break-all whitespace-pre-wrap">
          {JSON.stringify(record, null, 2)}
        </pre>
      </details>
    </div>
  );
}
