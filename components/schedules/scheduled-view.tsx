"use client";
// The Scheduled page: a new scheduled or recurring SEN transfer or wire (new-schedule.tsx), the next
// 90 days of occurrences as a list or a month, and each series with its approvals, its actions
// (skip, pause, resume, cancel, a new name or amount, a wire's new payee) and its history.
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  ApprovePauseResume,
  CardHeading,
  ProvenanceLine,
  statusWord,
} from "@/components/schedules/card-parts.tsx";
import {
  EditWireSeries,
  NewSchedule,
  placeErrors,
  SCHEDULES_KEY,
  SenFields,
  SubmitRow,
} from "@/components/schedules/new-schedule.tsx";
import { ActionStatus } from "@/components/ui/action-status.tsx";
import { StatusPill } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Input } from "@/components/ui/field.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { ActionsTh, DESKTOP_ONLY, Table, Td, Th, Tr } from "@/components/ui/table.tsx";
import { type RunAction, useCardActions } from "@/hooks/use-card-actions.ts";
import { addDays } from "@/lib/bank-api/dates.ts";
import { apiFetch, failureMessage, sendJson } from "@/lib/dashboard-api/fetch.ts";
import type {
  Occurrence,
  SchedulesResponse,
  Series,
  SeriesResponse,
  Upcoming,
} from "@/lib/dashboard-api/schedules.ts";
import { dayInWords } from "@/lib/format/dates.ts";

const KEY = SCHEDULES_KEY;

export function ScheduledView({
  me,
  canPrepare,
  canPrepareWires,
  canApprove,
}: {
  me: { id: string };
  canPrepare: boolean;
  /** May prepare wires: a wire series can be scheduled and changed. */
  canPrepareWires: boolean;
  canApprove: boolean;
}) {
  const q = useQuery({ queryKey: KEY, queryFn: () => apiFetch<typeof SchedulesResponse>("/api/schedules") });
  const { message, say, run, busy, refresh } = useCardActions(KEY);

  return (
    <div className="flex flex-col gap-6">
      <ActionStatus message={message} />
      {/* Drawn once the bank's business date is known: the start defaults to it. */}
      {canPrepare && q.data ? (
        <NewSchedule key={q.data.today} onDone={say} today={q.data.today} canWire={canPrepareWires} />
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
                      canPrepareWires={canPrepareWires}
                      canApprove={canApprove}
                      busy={busy}
                      run={run}
                      onChanged={(text) => {
                        say(text);
                        refresh();
                      }}
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
              <Th className={DESKTOP_ONLY}>Day</Th>
              <Th>Payment</Th>
              <Th className="text-right">Amount</Th>
              <Th className={DESKTOP_ONLY}>From → To</Th>
              <Th className={DESKTOP_ONLY}>Status</Th>
              <ActionsTh className={DESKTOP_ONLY} />
            </tr>
          </thead>
          <tbody>
            {data.upcoming.map((u) => {
              const status = (
                <StatusPill
                  status={
                    u.status === "due"
                      ? u.approved
                        ? "Scheduled"
                        : "Waiting for approval"
                      : statusWord(u.status)
                  }
                />
              );
              const route = `${u.fromAccount} → ${u.counterparty}`;
              const skip =
                canPrepare && u.status === "due" ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onSkip(u)}
                    aria-label={`Skip ${u.name} on ${dayInWords(u.day)}`}
                  >
                    Skip
                  </Button>
                ) : null;
              return (
                <Tr key={`${u.seriesId}/${u.nominalDay}`}>
                  <Td className={cn(DESKTOP_ONLY, "whitespace-nowrap")}>{dayInWords(u.day)}</Td>
                  <Td>
                    <span className="block font-medium text-slate-900 sm:font-normal sm:text-slate-800">
                      {u.name}
                    </span>
                    {/* A phone has no Day, From → To, Status or actions column: their words are here. */}
                    <span className="block text-xs text-slate-600 sm:hidden">{dayInWords(u.day)}</span>
                    <span className="block text-xs break-words text-slate-600 sm:hidden">{route}</span>
                    <span className="mt-1 block sm:hidden">{status}</span>
                  </Td>
                  <Td className="text-right align-top whitespace-nowrap sm:align-middle">
                    <Money cents={u.amountCents} />
                    {skip ? <span className="mt-2 block sm:hidden">{skip}</span> : null}
                  </Td>
                  <Td className={DESKTOP_ONLY}>{route}</Td>
                  <Td className={DESKTOP_ONLY}>{status}</Td>
                  <Td className={DESKTOP_ONLY}>{skip}</Td>
                </Tr>
              );
            })}
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
  canPrepareWires,
  canApprove,
  busy,
  run,
  onChanged,
}: {
  s: Series;
  me: { id: string };
  canPrepare: boolean;
  canPrepareWires: boolean;
  canApprove: boolean;
  busy: boolean;
  run: RunAction;
  /** The series was changed: says so. */
  onChanged: (text: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [history, setHistory] = useState<Occurrence[] | null>(null);
  const done = (text: string) => {
    setEditing(false);
    onChanged(text);
  };
  return (
    <Card aria-labelledby={`series-${s.id}`} className="p-4">
      <CardHeading headingId={`series-${s.id}`} item={s} />
      <p className="mt-1 text-sm text-slate-700">
        <Money cents={s.amountCents} /> from {s.fromAccount} to {s.counterparty} (
        {s.kind === "sen" ? "SEN transfer" : "wire"}) · {s.words}
      </p>
      <ProvenanceLine item={s} verb="Prepared">
        {s.nextDay ? ` · next on ${dayInWords(s.nextDay)}` : ""}
      </ProvenanceLine>
      <div className="mt-3 flex flex-wrap gap-2">
        <ApprovePauseResume
          item={s}
          path={`/api/schedules/${s.id}`}
          approveLabel="Approve series"
          me={me}
          canApprove={canApprove}
          canPrepare={canPrepare}
          resumedWords={`${s.name} goes on.`}
          busy={busy}
          run={run}
        />
        {canPrepare && (s.status === "active" || s.status === "paused") ? (
          <>
            {s.kind === "sen" || canPrepareWires ? (
              <Button
                variant="secondary"
                size="sm"
                disabled={busy}
                onClick={() => setEditing(!editing)}
                aria-expanded={editing}
              >
                Edit
              </Button>
            ) : null}
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
        s.kind === "wire" ? (
          <EditWireSeries s={s} onDone={done} />
        ) : (
          <EditSeries s={s} onDone={done} />
        )
      ) : null}
      {history ? (
        history.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">Nothing has run yet.</p>
        ) : (
          <Table caption={`History of ${s.name}`} captionHidden className="mt-3">
            <thead>
              <tr>
                <Th>Day</Th>
                <Th className={DESKTOP_ONLY}>Status</Th>
                <Th className="text-right">Amount</Th>
                <Th className={DESKTOP_ONLY}>Detail</Th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => {
                const detail =
                  h.reason ??
                  (h.paymentId
                    ? `Payment ${h.paymentId}`
                    : h.channel === "backup"
                      ? "Queued for reprocessing"
                      : "");
                const status = <StatusPill status={statusWord(h.status)} />;
                return (
                  <Tr key={h.nominalDay}>
                    <Td>
                      <span className="block whitespace-nowrap">{dayInWords(h.day)}</span>
                      {/* A phone has no Status or Detail column: their words are here. */}
                      <span className="mt-1 block sm:hidden">{status}</span>
                      {detail ? (
                        <span className="block text-xs break-words text-slate-600 sm:hidden">{detail}</span>
                      ) : null}
                    </Td>
                    <Td className={DESKTOP_ONLY}>{status}</Td>
                    <Td className="text-right align-top whitespace-nowrap sm:align-middle">
                      {h.amountCents === null ? "—" : <Money cents={h.amountCents} />}
                    </Td>
                    <Td className={DESKTOP_ONLY}>{detail}</Td>
                  </Tr>
                );
              })}
            </tbody>
          </Table>
        )
      ) : null}
    </Card>
  );
}

/**
 * A SEN series' name, amount and accounts changed in place (a new amount, payee or source account
 * needs approval again, as the server decides). A wire series has the wire form's fields
 * (EditWireSeries). A 400 shows under the field it names.
 */
function EditSeries({ s, onDone }: { s: Series; onDone: (text: string) => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const body = {
      kind: "sen",
      version: s.version,
      name: String(f.get("name") ?? ""),
      schedule: s.schedule,
      transfer: {
        idempotencyKey: crypto.randomUUID(),
        AccountNumberFrom: String(f.get("from") ?? ""),
        AccountNumberTo: String(f.get("to") ?? "").trim(),
        Amount: String(f.get("amount") ?? ""),
      },
    };
    setPending(true);
    try {
      await sendJson<typeof SeriesResponse>("PUT", `/api/schedules/${s.id}`, body);
      setErrors({});
      onDone(`${s.name} is changed.`);
    } catch (err) {
      setErrors(placeErrors(err, null, "The change was not saved."));
    } finally {
      setPending(false);
    }
  }
  return (
    <form className="mt-3 grid gap-3 sm:grid-cols-3" onSubmit={submit} noValidate>
      <Input label="Series name" name="name" defaultValue={s.name} error={errors.name} />
      <SenFields errors={errors} stored={s} />
      <div className="flex items-end sm:col-span-3">
        <SubmitRow pending={pending} label="Save changes" busy="Saving…" error={errors.form} size="sm" />
      </div>
    </form>
  );
}
