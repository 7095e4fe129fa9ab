"use client";
// The Scheduled page: a new scheduled or recurring SEN transfer, the next 90 days of occurrences as
// a list or a month, and each series with its approvals, its actions and its history.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { OwnSenAccounts, SenAccountSelect } from "@/components/accounts/sen-account-select.tsx";
import { Badge, StatusPill } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { Table, Td, Th, Tr } from "@/components/ui/table.tsx";
import { addDays } from "@/lib/bank-api/dates.ts";
import { apiFetch, failureMessage, sendJson } from "@/lib/dashboard-api/fetch.ts";
import type {
  CreateScheduleInput,
  Occurrence,
  SchedulesResponse,
  Series,
  SeriesResponse,
  Upcoming,
} from "@/lib/dashboard-api/schedules.ts";
import { dayInWords } from "@/lib/format/dates.ts";

const KEY = ["schedules"] as const;

/** A stored status as a word with a capital: "sent" → "Sent". */
const statusWord = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const WEEKDAY_OPTIONS = [
  ["MO", "Monday"],
  ["TU", "Tuesday"],
  ["WE", "Wednesday"],
  ["TH", "Thursday"],
  ["FR", "Friday"],
] as const;

export function ScheduledView({
  me,
  canPrepare,
  canApprove,
}: {
  me: { id: string };
  canPrepare: boolean;
  canApprove: boolean;
}) {
  const q = useQuery({ queryKey: KEY, queryFn: () => apiFetch<typeof SchedulesResponse>("/api/schedules") });
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const client = useQueryClient();
  const act = useMutation({
    mutationFn: (a: { path: string; body: unknown; method?: "POST" | "PUT"; done: string }) =>
      sendJson<typeof SeriesResponse>(a.method ?? "POST", a.path, a.body).then(() => a.done),
    onSuccess: (done) => {
      setMessage({ tone: "ok", text: done });
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: (e) => setMessage({ tone: "error", text: failureMessage(e, "That did not work.") }),
  });
  const run = (path: string, body: unknown, done: string, method?: "POST" | "PUT") =>
    act.mutate({ path, body, done, method });

  return (
    <div className="flex flex-col gap-6">
      <div role="status" aria-live="polite" className="min-h-6 text-sm">
        {message ? (
          <p className={message.tone === "ok" ? "text-emerald-800" : "font-medium text-rose-700"}>
            {message.text}
          </p>
        ) : null}
      </div>
      {/* Drawn once the bank's business date is known: the start defaults to it. */}
      {canPrepare && q.data ? (
        <NewSchedule
          key={q.data.today}
          onDone={(text) => setMessage({ tone: "ok", text })}
          today={q.data.today}
        />
      ) : null}
      {q.isPending ? <p className="text-sm text-slate-600">Loading scheduled payments…</p> : null}
      {q.isError ? (
        <p className="text-sm font-medium text-rose-700">
          {failureMessage(q.error, "Scheduled payments could not be read.")}
        </p>
      ) : null}
      {q.data ? (
        <>
          <UpcomingPanel
            data={q.data}
            canPrepare={canPrepare}
            onSkip={(u) =>
              run(
                `/api/schedules/${u.seriesId}/skip`,
                { nominalDay: u.nominalDay },
                `${u.name} on ${dayInWords(u.day)} will not be paid.`,
              )
            }
          />
          <Panel id="series-heading" title="Series">
            {q.data.series.length === 0 ? (
              <p className="text-sm text-slate-600">No scheduled payments yet.</p>
            ) : (
              <ul className="flex flex-col gap-4">
                {q.data.series.map((s) => (
                  <li key={s.id}>
                    <SeriesCard
                      s={s}
                      me={me}
                      canPrepare={canPrepare}
                      canApprove={canApprove}
                      busy={act.isPending}
                      run={run}
                    />
                  </li>
                ))}
              </ul>
            )}
          </Panel>
        </>
      ) : null}
    </div>
  );
}

function NewSchedule({ onDone, today }: { onDone: (text: string) => void; today?: string }) {
  const client = useQueryClient();
  const [kind, setKind] = useState("monthly-first-business-day");
  const [ends, setEnds] = useState("never");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formKey, setFormKey] = useState(() => crypto.randomUUID());
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (n: string) => String(f.get(n) ?? "").trim();
    const pattern =
      kind === "weekly"
        ? { kind, everyWeeks: Number(text("everyWeeks") || "1"), weekday: text("weekday") }
        : kind === "monthly-day"
          ? { kind, day: Number(text("day") || "1") }
          : { kind };
    const body = {
      kind: "sen",
      name: text("name"),
      schedule: {
        startsOn: text("startsOn"),
        pattern,
        count: ends === "count" ? Number(text("count")) : null,
        until: ends === "until" ? text("until") : null,
        roll: text("roll") || "following",
      },
      transfer: {
        idempotencyKey: formKey,
        AccountNumberFrom: text("from"),
        AccountNumberTo: text("to"),
        Amount: text("amount"),
      },
    } as unknown as CreateScheduleInput;
    setPending(true);
    try {
      const made = await sendJson<typeof SeriesResponse>("POST", "/api/schedules", body);
      setErrors({});
      setFormKey(crypto.randomUUID());
      (e.target as HTMLFormElement).reset();
      await client.invalidateQueries({ queryKey: KEY });
      onDone(`Scheduled: ${made.series.name}, ${made.series.words}.`);
    } catch (err) {
      const fields = (err as { fields?: { field: string; message: string }[] }).fields ?? [];
      setErrors(Object.fromEntries(fields.map((x) => [x.field.split(".").pop() as string, x.message])));
      if (!fields.length) setErrors({ form: failureMessage(err, "The schedule was not saved.") });
    } finally {
      setPending(false);
    }
  }

  return (
    <Panel id="new-schedule-heading" title="Schedule a SEN transfer">
      <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2" noValidate>
        <Input
          label="Name"
          name="name"
          required
          error={errors.name}
          hint="Shown in history, e.g. Office rent"
        />
        <Input
          label="Amount"
          name="amount"
          inputMode="decimal"
          required
          error={errors.Amount}
          hint="Dollars"
        />
        <SenAccountSelect label="From account" name="from" error={errors.AccountNumberFrom} />
        <Input
          label="To account"
          name="to"
          inputMode="numeric"
          required
          list="schedule-sen-accounts"
          autoComplete="off"
          error={errors.AccountNumberTo}
          hint="One of your SEN accounts, or another customer's SEN account number."
        />
        <OwnSenAccounts id="schedule-sen-accounts" />
        <Select label="Repeats" name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="once">Once, on a future day</option>
          <option value="weekly">Weekly, or every few weeks</option>
          <option value="monthly-day">Monthly on a day</option>
          <option value="monthly-first-business-day">Monthly on the first business day</option>
          <option value="monthly-last-business-day">Monthly on the last business day</option>
        </Select>
        <Input
          label={kind === "once" ? "Pay on" : "Starts on"}
          name="startsOn"
          type="date"
          required
          defaultValue={today}
          error={errors.startsOn}
        />
        {kind === "weekly" ? (
          <>
            <Input
              label="Every how many weeks"
              name="everyWeeks"
              type="number"
              min={1}
              max={52}
              defaultValue={1}
              error={errors.everyWeeks}
            />
            <Select label="On" name="weekday" defaultValue="FR">
              {WEEKDAY_OPTIONS.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </Select>
          </>
        ) : null}
        {kind === "monthly-day" ? (
          <Input
            label="Day of the month"
            name="day"
            type="number"
            min={1}
            max={31}
            defaultValue={1}
            error={errors.day}
          />
        ) : null}
        {kind === "weekly" || kind === "monthly-day" || kind === "once" ? (
          <Select label="When it is not a business day" name="roll" defaultValue="following">
            <option value="following">Pay on the next business day</option>
            <option value="preceding">Pay on the business day before</option>
          </Select>
        ) : null}
        {kind !== "once" ? (
          <Select label="Ends" name="ends" value={ends} onChange={(e) => setEnds(e.target.value)}>
            <option value="never">Never (until cancelled)</option>
            <option value="count">After a number of payments</option>
            <option value="until">On a date</option>
          </Select>
        ) : null}
        {kind !== "once" && ends === "count" ? (
          <Input
            label="Number of payments"
            name="count"
            type="number"
            min={1}
            max={1000}
            required
            error={errors.count}
          />
        ) : null}
        {kind !== "once" && ends === "until" ? (
          <Input label="Last day" name="until" type="date" required error={errors.until} />
        ) : null}
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={pending}>
            {pending ? "Scheduling…" : "Schedule transfer"}
          </Button>
          {errors.form ? <p className="text-sm font-medium text-rose-700">{errors.form}</p> : null}
        </div>
      </form>
    </Panel>
  );
}

function UpcomingPanel({
  data,
  canPrepare,
  onSkip,
}: {
  data: SchedulesResponse;
  canPrepare: boolean;
  onSkip: (u: Upcoming) => void;
}) {
  const [view, setView] = useState<"list" | "month">("list");
  return (
    <Panel id="upcoming-heading" title="Next 90 days">
      <fieldset className="mb-3 flex gap-2">
        <legend className="sr-only">Show upcoming payments as</legend>
        <Button
          variant={view === "list" ? "primary" : "secondary"}
          size="sm"
          aria-pressed={view === "list"}
          onClick={() => setView("list")}
        >
          List
        </Button>
        <Button
          variant={view === "month" ? "primary" : "secondary"}
          size="sm"
          aria-pressed={view === "month"}
          onClick={() => setView("month")}
        >
          Month
        </Button>
      </fieldset>
      {data.upcoming.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing is scheduled in the next 90 days.</p>
      ) : view === "list" ? (
        <Table caption="Upcoming scheduled payments" captionHidden>
          <thead>
            <tr>
              <Th>Day</Th>
              <Th>Payment</Th>
              <Th className="text-right">Amount</Th>
              <Th>From → To</Th>
              <Th>Status</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {data.upcoming.map((u) => (
              <Tr key={`${u.seriesId}/${u.nominalDay}`}>
                <Td>{dayInWords(u.day)}</Td>
                <Td>{u.name}</Td>
                <Td className="text-right">
                  <Money cents={u.amountCents} />
                </Td>
                <Td>
                  {u.fromAccount} → {u.counterparty}
                </Td>
                <Td>
                  <StatusPill
                    status={
                      u.status === "due"
                        ? u.approved
                          ? "Scheduled"
                          : "Waiting for approval"
                        : statusWord(u.status)
                    }
                  />
                </Td>
                <Td>
                  {canPrepare && u.status === "due" ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => onSkip(u)}
                      aria-label={`Skip ${u.name} on ${dayInWords(u.day)}`}
                    >
                      Skip
                    </Button>
                  ) : null}
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <MonthView today={data.today} upcoming={data.upcoming} />
      )}
    </Panel>
  );
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function MonthView({ today, upcoming }: { today: string; upcoming: Upcoming[] }) {
  const [offset, setOffset] = useState(0);
  const first = new Date(`${today.slice(0, 8)}01T00:00:00Z`);
  first.setUTCMonth(first.getUTCMonth() + offset);
  const month = first.toISOString().slice(0, 7);
  const start = addDays(`${month}-01`, -((first.getUTCDay() + 6) % 7));
  const weeks: string[][] = [];
  for (let d = start; d.slice(0, 7) <= month || weeks.at(-1)?.length !== 7; d = addDays(d, 1)) {
    if (!weeks.length || weeks[weeks.length - 1].length === 7) {
      if (d.slice(0, 7) > month) break;
      weeks.push([]);
    }
    weeks[weeks.length - 1].push(d);
  }
  const byDay = new Map<string, Upcoming[]>();
  for (const u of upcoming) byDay.set(u.day, [...(byDay.get(u.day) ?? []), u]);
  const title = `${MONTH_NAMES[first.getUTCMonth()]} ${first.getUTCFullYear()}`;
  return (
    <div>
      <div className="mb-2 flex items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setOffset(offset - 1)}
          disabled={offset <= 0}
          aria-label="Previous month"
        >
          ←
        </Button>
        <h3 className="text-base font-semibold text-slate-900" aria-live="polite">
          {title}
        </h3>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setOffset(offset + 1)}
          disabled={offset >= 3}
          aria-label="Next month"
        >
          →
        </Button>
      </div>
      <table
        className="w-full table-fixed border-collapse text-xs"
        aria-label={`Scheduled payments in ${title}`}
      >
        <thead>
          <tr>
            {["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) => (
              <th
                key={d}
                scope="col"
                className="border border-slate-200 bg-slate-50 px-1 py-1 text-left font-medium text-slate-700"
              >
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((w) => (
            <tr key={w[0]}>
              {w.map((d) => (
                <td key={d} className="h-20 border border-slate-200 px-1 py-1 align-top">
                  <span className={d.slice(0, 7) === month ? "text-slate-700" : "text-slate-500"}>
                    {Number(d.slice(8))}
                  </span>
                  <ul>
                    {(byDay.get(d) ?? []).map((u) => (
                      <li key={`${u.seriesId}/${u.nominalDay}`} className="truncate text-slate-900">
                        {u.name} <Money cents={u.amountCents} />
                      </li>
                    ))}
                  </ul>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SeriesCard({
  s,
  me,
  canPrepare,
  canApprove,
  busy,
  run,
}: {
  s: Series;
  me: { id: string };
  canPrepare: boolean;
  canApprove: boolean;
  busy: boolean;
  run: (path: string, body: unknown, done: string, method?: "POST" | "PUT") => void;
}) {
  const [editing, setEditing] = useState(false);
  const [history, setHistory] = useState<Occurrence[] | null>(null);
  const mayApprove =
    canApprove && s.preparedBy.id !== me.id && !s.approved && s.approvals.every((a) => a.id !== me.id);
  const status =
    s.approvalsRequired === 0
      ? "No approval needed"
      : `${s.approvals.length} of ${s.approvalsRequired} approvals`;
  return (
    <Card aria-labelledby={`series-${s.id}`} className="p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`series-${s.id}`} className="text-base font-semibold text-slate-900">
          {s.name}
        </h3>
        <div className="flex gap-2">
          <StatusPill status={statusWord(s.status)} />
          <Badge tone={s.approved ? "success" : "warning"}>
            {s.approved ? "Approved" : "Waiting for approval"}
          </Badge>
        </div>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        <Money cents={s.amountCents} /> from {s.fromAccount} to {s.counterparty} (
        {s.kind === "sen" ? "SEN transfer" : "wire"}) · {s.words}
      </p>
      <p className="mt-1 text-xs text-slate-600">
        Prepared by {s.preparedBy.email} · {status}
        {s.approvals.length ? ` (${s.approvals.map((a) => a.email).join(", ")})` : ""} · version {s.version}
        {s.nextDay ? ` · next on ${dayInWords(s.nextDay)}` : ""}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {mayApprove ? (
          <Button
            size="sm"
            disabled={busy}
            onClick={() =>
              run(`/api/schedules/${s.id}/approve`, { version: s.version }, `You approved ${s.name}.`)
            }
          >
            Approve series
          </Button>
        ) : null}
        {canPrepare && s.status === "active" ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => run(`/api/schedules/${s.id}/status`, { action: "pause" }, `${s.name} is paused.`)}
          >
            Pause
          </Button>
        ) : null}
        {canPrepare && s.status === "paused" ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => run(`/api/schedules/${s.id}/status`, { action: "resume" }, `${s.name} goes on.`)}
          >
            Resume
          </Button>
        ) : null}
        {canPrepare && (s.status === "active" || s.status === "paused") ? (
          <>
            <Button
              variant="secondary"
              size="sm"
              disabled={busy}
              onClick={() => setEditing(!editing)}
              aria-expanded={editing}
            >
              Edit
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={busy}
              onClick={() =>
                run(`/api/schedules/${s.id}/status`, { action: "cancel" }, `${s.name} is cancelled.`)
              }
            >
              Cancel series
            </Button>
          </>
        ) : null}
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={history !== null}
          onClick={async () =>
            setHistory(
              history ? null : (await apiFetch<typeof SeriesResponse>(`/api/schedules/${s.id}`)).history,
            )
          }
        >
          {history ? "Hide history" : "History"}
        </Button>
      </div>
      {editing ? (
        <form
          className="mt-3 grid gap-3 sm:grid-cols-3"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            run(
              `/api/schedules/${s.id}`,
              {
                kind: "sen",
                version: s.version,
                name: String(f.get("name")),
                schedule: s.schedule,
                transfer: {
                  idempotencyKey: crypto.randomUUID(),
                  AccountNumberFrom: s.fromAccount,
                  AccountNumberTo: s.counterparty,
                  Amount: String(f.get("amount")),
                },
              },
              `${s.name} is changed.`,
              "PUT",
            );
            setEditing(false);
          }}
        >
          <Input label="Name" name="name" defaultValue={s.name} />
          <Input
            label="Amount"
            name="amount"
            defaultValue={(s.amountCents / 100).toFixed(2)}
            hint="A new amount needs approval again"
          />
          <div className="flex items-end">
            <Button type="submit" size="sm">
              Save changes
            </Button>
          </div>
        </form>
      ) : null}
      {history ? (
        history.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">Nothing has run yet.</p>
        ) : (
          <Table caption={`History of ${s.name}`} captionHidden className="mt-3">
            <thead>
              <tr>
                <Th>Day</Th>
                <Th>Status</Th>
                <Th className="text-right">Amount</Th>
                <Th>Detail</Th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <Tr key={h.nominalDay}>
                  <Td>{dayInWords(h.day)}</Td>
                  <Td>
                    <StatusPill status={statusWord(h.status)} />
                  </Td>
                  <Td className="text-right">
                    {h.amountCents === null ? "—" : <Money cents={h.amountCents} />}
                  </Td>
                  <Td>
                    {h.reason ??
                      (h.paymentId
                        ? `Payment ${h.paymentId}`
                        : h.channel === "backup"
                          ? "Queued for reprocessing"
                          : "")}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )
      ) : null}
    </Card>
  );
}
