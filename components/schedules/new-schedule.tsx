"use client";
// The Scheduled page's new series: a SEN transfer, or a wire with the wire form's own fields (the
// account it leaves, the amount, a saved beneficiary that fills the rest), and the repeat rule both
// kinds share. Both go to POST /api/schedules; a 400 shows under each field it names. A wire
// series' change (PUT /api/schedules/[id]) has the same wire fields, its payee among them.
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type RefObject, useId, useRef, useState } from "react";
import { FormProvider } from "react-hook-form";
import { OwnSenAccounts, SenAccountSelect } from "@/components/accounts/sen-account-select.tsx";
import {
  BeneficiaryBankFields,
  BeneficiaryPartyFields,
} from "@/components/send-money/beneficiary-fields.tsx";
import { SavedBeneficiarySelect, WirePaymentFields } from "@/components/send-money/wire-fields.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { useBeneficiaryFill } from "@/hooks/use-beneficiary-fill.ts";
import { useWireSources } from "@/hooks/use-wire-sources.ts";
import { useZodForm, type ZodForm } from "@/hooks/use-zod-form.ts";
import {
  MAX_EVERY_WEEKS,
  MAX_MONTH_DAY,
  MAX_OCCURRENCES,
  WEEKDAY_NAMES,
  WEEKDAYS,
} from "@/lib/calendar/schedule-limits.ts";
import { ApiError, failureMessage, sendJson } from "@/lib/dashboard-api/fetch.ts";
import type { CreateScheduleInput, Series, SeriesResponse } from "@/lib/dashboard-api/schedules.ts";
import type { WireDraftInput, WireDraftRequest } from "@/lib/dashboard-api/wires.ts";
import { EMPTY_WIRE, wireValuesOfRequest } from "@/lib/form-rules/wire-values.ts";
import type { SeriesKind } from "@/lib/schedules/states.ts";

// The wire schema (and zod with it) loads when a wire field is first checked, as on the wire form.
const loadWireSchema = () =>
  import("@/lib/dashboard-api/wires.ts").then((m): typeof WireDraftRequest => m.WireDraftRequest);

export const SCHEDULES_KEY = ["schedules"] as const;

/** What a new series pays with, in the order offered. */
const RAILS: readonly (readonly [SeriesKind, string])[] = [
  ["sen", "SEN transfer"],
  ["wire", "Wire"],
];

const FIRST_PATTERN = "monthly-first-business-day";

/** The wire form's field names: a route error under `wire.<name>` shows under that field. */
const WIRE_FIELDS = new Set(
  Object.keys(EMPTY_WIRE).filter((f) => f !== "beneficiaryId" && f !== "idempotencyKey"),
);
/** The other fields that show a route error under them (by the last part of its name); the rest is said above the button. */
const SHOWN_HERE = new Set([
  "name",
  "Amount",
  "AccountNumberFrom",
  "AccountNumberTo",
  "beneficiaryId",
  "startsOn",
  "everyWeeks",
  "weekday",
  "day",
  "count",
  "until",
]);

export function NewSchedule({
  onDone,
  today,
  canWire,
}: {
  onDone: (text: string) => void;
  today?: string;
  /** May prepare wires (wires.create): the choice of a wire is offered. */
  canWire: boolean;
}) {
  const client = useQueryClient();
  const railName = useId();
  const [rail, setRail] = useState<SeriesKind>("sen");
  const [pattern, setPattern] = useState<string>(FIRST_PATTERN);
  const [ends, setEnds] = useState("never");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formKey, setFormKey] = useState(() => crypto.randomUUID());
  const [pending, setPending] = useState(false);
  const wire = useZodForm(loadWireSchema, { defaultValues: EMPTY_WIRE });
  /** Drops the saved beneficiary from the wire when its account or bank details were changed. */
  const keepBeneficiaryIfUnchanged = useRef<() => void>(() => {});

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const text = (n: string) => String(f.get(n) ?? "").trim();
    const schedule = {
      startsOn: text("startsOn"),
      pattern:
        pattern === "weekly"
          ? { kind: pattern, everyWeeks: Number(text("everyWeeks") || "1"), weekday: text("weekday") }
          : pattern === "monthly-day"
            ? { kind: pattern, day: Number(text("day") || "1") }
            : { kind: pattern },
      count: pattern !== "once" && ends === "count" ? Number(text("count")) : null,
      until: pattern !== "once" && ends === "until" ? text("until") : null,
      roll: text("roll") || "following",
    };
    if (rail === "wire") keepBeneficiaryIfUnchanged.current();
    const body = (rail === "sen"
      ? {
          kind: "sen",
          name: text("name"),
          schedule,
          transfer: {
            idempotencyKey: formKey,
            AccountNumberFrom: text("from"),
            AccountNumberTo: text("to"),
            Amount: text("amount"),
          },
        }
      : {
          kind: "wire",
          name: text("name"),
          schedule,
          wire: { ...wire.getValues(), idempotencyKey: formKey },
        }) as unknown as CreateScheduleInput;
    setPending(true);
    wire.clearErrors();
    try {
      const made = await sendJson<typeof SeriesResponse>("POST", "/api/schedules", body);
      setErrors({});
      setFormKey(crypto.randomUUID());
      form.reset();
      wire.reset(EMPTY_WIRE);
      setPattern(FIRST_PATTERN);
      setEnds("never");
      await client.invalidateQueries({ queryKey: SCHEDULES_KEY });
      onDone(`Scheduled: ${made.series.name}, ${made.series.words}.`);
    } catch (err) {
      setErrors(placeErrors(err, rail === "wire" ? wire : null, "The schedule was not saved."));
    } finally {
      setPending(false);
    }
  }

  return (
    <Panel id="new-schedule-heading" title={rail === "wire" ? "Schedule a wire" : "Schedule a SEN transfer"}>
      {canWire ? (
        <fieldset className="mb-4">
          <legend className="mb-2 text-sm font-medium text-slate-700">Pay by</legend>
          <div className="flex flex-wrap gap-6">
            {RAILS.map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name={railName}
                  value={value}
                  checked={rail === value}
                  onChange={() => {
                    setRail(value);
                    setErrors({});
                  }}
                  className="size-4 text-brand-700"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-6" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label="Series name"
            name="name"
            required
            error={errors.name}
            hint={
              rail === "wire"
                ? "The series' own name on this page, e.g. Supplier retainer"
                : "Shown in history, e.g. Office rent"
            }
          />
          {rail === "sen" ? <SenFields errors={errors} /> : null}
        </div>
        {rail === "wire" ? (
          <FormProvider {...wire}>
            <WireFields form={wire} errors={errors} keepIfUnchanged={keepBeneficiaryIfUnchanged} />
          </FormProvider>
        ) : null}
        <RepeatFields
          today={today}
          errors={errors}
          pattern={pattern}
          setPattern={setPattern}
          ends={ends}
          setEnds={setEnds}
        />
        <SubmitRow
          pending={pending}
          label={rail === "wire" ? "Schedule wire" : "Schedule transfer"}
          busy="Scheduling…"
          error={errors.form}
        />
      </form>
    </Panel>
  );
}

/**
 * A refused form's errors: a wire field's under that field (the first focused), the others by the
 * last part of their name, the rest (and any refusal not about one field's format, a 409 or a 403)
 * in words above the button.
 */
export function placeErrors(
  err: unknown,
  wire: ZodForm<typeof WireDraftRequest> | null,
  fallback: string,
): Record<string, string> {
  const fields = err instanceof ApiError ? err.fields : [];
  const shown: Record<string, string> = {};
  const unplaced: string[] = [];
  let first = true;
  for (const x of fields) {
    const [head, ...rest] = x.field.split(".");
    const name = rest.join(".");
    if (wire && head === "wire" && WIRE_FIELDS.has(rest[0] ?? "")) {
      wire.setError(
        name as keyof WireDraftInput,
        { type: "server", message: x.message },
        { shouldFocus: first },
      );
      first = false;
    } else {
      const last = x.field.split(".").pop() as string;
      if (SHOWN_HERE.has(last)) shown[last] = x.message;
      else unplaced.push(`${x.field}: ${x.message}`);
    }
  }
  if (unplaced.length) shown.form = unplaced.join(" ");
  if (!fields.length || !(err instanceof ApiError && err.status === 400))
    shown.form = [failureMessage(err, fallback), shown.form].filter(Boolean).join(" ");
  return shown;
}

/**
 * A wire series changed in place: its name, and the wire form's own fields filled with what each
 * occurrence sends (the account it leaves, the amount, the beneficiary and its banks, a saved
 * beneficiary to fill them from). Any change to what the bank is sent, a new payee included,
 * needs approval again; the repeat rule stays. A 400 shows under the field it names.
 */
export function EditWireSeries({ s, onDone }: { s: Series; onDone: (text: string) => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [formKey] = useState(() => crypto.randomUUID());
  const wire = useZodForm(loadWireSchema, {
    defaultValues: wireValuesOfRequest(s.request, formKey, s.beneficiaryId),
  });
  const keepBeneficiaryIfUnchanged = useRef<() => void>(() => {});
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get("name") ?? "");
    keepBeneficiaryIfUnchanged.current();
    setPending(true);
    wire.clearErrors();
    try {
      await sendJson<typeof SeriesResponse>("PUT", `/api/schedules/${s.id}`, {
        kind: "wire",
        version: s.version,
        name,
        schedule: s.schedule,
        wire: { ...wire.getValues(), idempotencyKey: formKey },
      });
      setErrors({});
      onDone(`${s.name} is changed.`);
    } catch (err) {
      setErrors(placeErrors(err, wire, "The change was not saved."));
    } finally {
      setPending(false);
    }
  }
  return (
    <form className="mt-3 flex flex-col gap-4" onSubmit={submit} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Input label="Series name" name="name" defaultValue={s.name} error={errors.name} />
      </div>
      <p className="text-sm text-slate-600">
        A new amount, account, beneficiary or bank needs approval again before the next payment.
      </p>
      <FormProvider {...wire}>
        <WireFields form={wire} errors={errors} keepIfUnchanged={keepBeneficiaryIfUnchanged} />
      </FormProvider>
      <SubmitRow pending={pending} label="Save changes" busy="Saving…" error={errors.form} size="sm" />
    </form>
  );
}

/**
 * A SEN transfer's amount and two accounts: empty for a new series, or a stored series' own
 * (`stored`, whose change of any of them needs approval again).
 */
export function SenFields({
  errors,
  stored,
}: {
  errors: Record<string, string>;
  stored?: { amountCents: number; fromAccount: string; counterparty: string; id: string };
}) {
  const list = stored ? `series-${stored.id}-accounts` : "schedule-sen-accounts";
  return (
    <>
      <Input
        label="Amount"
        name="amount"
        inputMode="decimal"
        required
        defaultValue={stored ? (stored.amountCents / 100).toFixed(2) : undefined}
        error={errors.Amount}
        hint={stored ? "A new amount needs approval again" : "Dollars"}
      />
      <SenAccountSelect
        label="From account"
        name="from"
        defaultValue={stored?.fromAccount}
        error={errors.AccountNumberFrom}
      />
      <Input
        label="To account"
        name="to"
        inputMode="numeric"
        required
        list={list}
        autoComplete="off"
        defaultValue={stored?.counterparty}
        error={errors.AccountNumberTo}
        hint={
          stored
            ? "A new account needs approval again"
            : "One of your SEN accounts, or another customer's SEN account number."
        }
      />
      <OwnSenAccounts id={list} />
    </>
  );
}

/** A form's submit button, with what went wrong beside it when no field holds it. */
export function SubmitRow({
  pending,
  label,
  busy,
  error,
  size,
}: {
  pending: boolean;
  label: string;
  busy: string;
  error?: string;
  size?: "sm";
}) {
  return (
    <div className="flex items-center gap-3">
      <Button type="submit" size={size} disabled={pending}>
        {pending ? busy : label}
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const GROUP = "grid gap-4 md:grid-cols-2";
const LEGEND = "mb-2 text-sm font-semibold text-slate-900";

/** The wire form's fields, grouped as its cards group them: the payment, the beneficiary, its bank. */
function WireFields({
  form,
  errors,
  keepIfUnchanged,
}: {
  form: ZodForm<typeof WireDraftRequest>;
  errors: Record<string, string>;
  keepIfUnchanged: RefObject<() => void>;
}) {
  const { accounts, beneficiariesLoaded, templates, usable } = useWireSources(undefined);
  const beneficiary = useBeneficiaryFill(form, templates);
  keepIfUnchanged.current = beneficiary.keepIfUnchanged;
  return (
    <>
      <fieldset>
        <legend className={LEGEND}>Payment</legend>
        <p className="mb-3 text-sm text-slate-600">
          Each payment goes to the bank on its day as a wire, once the series has the approvals a wire needs.
        </p>
        <div className={GROUP}>
          <WirePaymentFields accounts={accounts.data?.accounts ?? []} refusedWhen="on its day" />
        </div>
      </fieldset>
      <fieldset>
        <legend className={LEGEND}>Beneficiary</legend>
        <div className={GROUP}>
          <SavedBeneficiarySelect
            templates={templates}
            usable={usable}
            loaded={beneficiariesLoaded}
            onChoose={beneficiary.fill}
            error={errors.beneficiaryId}
            none="None saved yet: fill in the fields, or save the beneficiary on the Beneficiaries page first."
          />
          <BeneficiaryPartyFields />
        </div>
      </fieldset>
      <fieldset>
        <legend className={LEGEND}>Beneficiary bank</legend>
        <p className="mb-3 text-sm text-slate-600">
          A US bank by its ABA routing number; a bank abroad by its SWIFT BIC.
        </p>
        <div className={GROUP}>
          <BeneficiaryBankFields />
        </div>
      </fieldset>
    </>
  );
}

/** The repeat rule: the same for a SEN transfer and a wire. */
function RepeatFields({
  today,
  errors,
  pattern,
  setPattern,
  ends,
  setEnds,
}: {
  today?: string;
  errors: Record<string, string>;
  pattern: string;
  setPattern: (p: string) => void;
  ends: string;
  setEnds: (e: string) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Select
        label="Repeats"
        name="kind"
        defaultValue={FIRST_PATTERN}
        onChange={(e) => setPattern(e.target.value)}
      >
        <option value="once">Once, on a future day</option>
        <option value="weekly">Weekly, or every few weeks</option>
        <option value="monthly-day">Monthly on a day</option>
        <option value="monthly-first-business-day">Monthly on the first business day</option>
        <option value="monthly-last-business-day">Monthly on the last business day</option>
      </Select>
      <Input
        label={pattern === "once" ? "Pay on" : "Starts on"}
        name="startsOn"
        type="date"
        required
        defaultValue={today}
        error={errors.startsOn}
      />
      {pattern === "weekly" ? (
        <>
          <Input
            label="Every how many weeks"
            name="everyWeeks"
            type="number"
            min={1}
            max={MAX_EVERY_WEEKS}
            defaultValue={1}
            error={errors.everyWeeks}
          />
          <Select label="On" name="weekday" defaultValue="FR" error={errors.weekday}>
            {WEEKDAYS.map((v) => (
              <option key={v} value={v}>
                {WEEKDAY_NAMES[v]}
              </option>
            ))}
          </Select>
        </>
      ) : null}
      {pattern === "monthly-day" ? (
        <Input
          label="Day of the month"
          name="day"
          type="number"
          min={1}
          max={MAX_MONTH_DAY}
          defaultValue={1}
          error={errors.day}
        />
      ) : null}
      {pattern === "weekly" || pattern === "monthly-day" || pattern === "once" ? (
        <Select label="When it is not a business day" name="roll" defaultValue="following">
          <option value="following">Pay on the next business day</option>
          <option value="preceding">Pay on the business day before</option>
        </Select>
      ) : null}
      {pattern !== "once" ? (
        <Select label="Ends" name="ends" value={ends} onChange={(e) => setEnds(e.target.value)}>
          <option value="never">Never (until cancelled)</option>
          <option value="count">After a number of payments</option>
          <option value="until">On a date</option>
        </Select>
      ) : null}
      {pattern !== "once" && ends === "count" ? (
        <Input
          label="Number of payments"
          name="count"
          type="number"
          min={1}
          max={MAX_OCCURRENCES}
          required
          error={errors.count}
        />
      ) : null}
      {pattern !== "once" && ends === "until" ? (
        <Input label="Last day" name="until" type="date" required error={errors.until} />
      ) : null}
    </div>
  );
}
