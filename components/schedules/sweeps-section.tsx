"use client";
// The Scheduled page's sweeps: a new sweep (a band kept on an account, funded from and swept to
// another), and each sweep with its band, its approvals, its actions and its last moves.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { SenAccountSelect, useAccountWords } from "@/components/accounts/sen-account-select.tsx";
import { ApprovePauseResume, CardHeading, ProvenanceLine } from "@/components/schedules/card-parts.tsx";
import { ActionStatus } from "@/components/ui/action-status.tsx";
import { StatusPill } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Input } from "@/components/ui/field.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { DESKTOP_ONLY, Table, Td, Th, Tr } from "@/components/ui/table.tsx";
import { type RunAction, useCardActions } from "@/hooks/use-card-actions.ts";
import { apiFetch, failureMessage, sendJson } from "@/lib/dashboard-api/fetch.ts";
import type { Sweep, SweepMove, SweepResponse, SweepsResponse } from "@/lib/dashboard-api/schedules.ts";
import { typedDollarsToCents } from "@/lib/form-rules/typed-dollars.ts";
import { dayInWords } from "@/lib/format/dates.ts";

const KEY = ["sweeps"] as const;

const MOVE_WORDS: Record<SweepMove["status"], string> = {
  sending: "Sending",
  sent: "Moved",
  failed: "Failed",
  inside: "Inside the band",
  short: "Nothing to fund from",
};

function moveWords(s: Sweep, m: SweepMove, words: (accountNumber: string) => string): string {
  if (!m.direction || m.status === "inside") return "No move needed";
  return m.direction === "fund"
    ? `From ${words(s.fundingAccount)} to ${words(s.account)}`
    : `From ${words(s.account)} to ${words(s.fundingAccount)}`;
}

export function SweepsSection({
  me,
  canPrepare,
  canApprove,
}: {
  me: { id: string };
  canPrepare: boolean;
  canApprove: boolean;
}) {
  const q = useQuery({
    queryKey: KEY,
    queryFn: () => apiFetch<typeof SweepsResponse>("/api/schedules/sweeps"),
  });
  const { message, say, run, busy } = useCardActions(KEY);

  return (
    <Panel id="sweeps-heading" title="Sweeps">
      <p className="mb-4 text-sm text-slate-600">
        A sweep keeps an account&apos;s available balance inside a band by moving money between your own
        accounts: at its time each business day, and whenever the balance leaves the band. It never moves more
        than the other account has available, and it moves nothing until an approver approves it.
      </p>
      <ActionStatus message={message} />
      {canPrepare ? <SweepForm onDone={say} /> : null}
      {q.isPending ? <p className="text-sm text-slate-600">Loading sweeps…</p> : null}
      {q.isError ? (
        <p className="text-sm font-medium text-rose-700">
          {failureMessage(q.error, "Sweeps could not be read.")}
        </p>
      ) : null}
      {q.data ? (
        q.data.sweeps.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600">No sweeps yet.</p>
        ) : (
          <ul className="mt-4 flex flex-col gap-4">
            {q.data.sweeps.map((s) => (
              <li key={s.id}>
                <SweepCard
                  s={s}
                  me={me}
                  canPrepare={canPrepare}
                  canApprove={canApprove}
                  busy={busy}
                  run={run}
                  onChanged={say}
                />
              </li>
            ))}
          </ul>
        )
      ) : null}
    </Panel>
  );
}

/** Cents as the form shows them: "500000.00". */
const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * A sweep's terms: a new sweep (under a form key, so a double submit makes one), or an existing
 * one changed as seen at its version (a change that widens the band or changes the accounts needs
 * approval again; the server decides).
 */
function SweepForm({
  editing,
  onDone,
  onCancel,
}: {
  editing?: Sweep;
  onDone: (text: string) => void;
  onCancel?: () => void;
}) {
  const client = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formKey, setFormKey] = useState(() => crypto.randomUUID());
  const [pending, setPending] = useState(false);
  const id = editing ? `sweep-${editing.id}-edit` : "sweep-new";

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const text = (n: string) => String(f.get(n) ?? "").trim();
    const low = typedDollarsToCents(text("low"));
    const high = text("high") ? typedDollarsToCents(text("high")) : low;
    const local: Record<string, string> = {};
    if (low === null) local.lowCents = "Enter an amount in dollars, such as 500,000.00";
    if (high === null) local.highCents = "Enter an amount in dollars, or leave it empty for a target";
    if (Object.keys(local).length) return setErrors(local);
    const terms = {
      name: text("name"),
      account: text("account"),
      fundingAccount: text("fundingAccount"),
      lowCents: low,
      highCents: high,
      runAt: text("runAt"),
    };
    setPending(true);
    try {
      const saved = editing
        ? await sendJson<typeof SweepResponse>("PUT", `/api/schedules/sweeps/${editing.id}`, {
            version: editing.version,
            ...terms,
          })
        : await sendJson<typeof SweepResponse>("POST", "/api/schedules/sweeps", {
            idempotencyKey: formKey,
            ...terms,
          });
      setErrors({});
      await client.invalidateQueries({ queryKey: KEY });
      if (!editing) {
        setFormKey(crypto.randomUUID());
        form.reset();
      }
      onDone(
        editing
          ? saved.sweep.approved
            ? `${saved.sweep.name} is changed.`
            : `${saved.sweep.name} is changed: it waits for approval again.`
          : `Sweep ${saved.sweep.name} set up: it waits for approval.`,
      );
    } catch (err) {
      const fields = (err as { fields?: { field: string; message: string }[] }).fields ?? [];
      setErrors(Object.fromEntries(fields.map((x) => [x.field.split(".").pop() as string, x.message])));
      if (!fields.length) setErrors({ form: failureMessage(err, "The sweep was not saved.") });
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      className="grid gap-4 sm:grid-cols-2"
      noValidate
      aria-label={editing ? `Change ${editing.name}` : "New sweep"}
      id={id}
    >
      <Input
        label="Sweep name"
        name="name"
        required
        defaultValue={editing?.name}
        error={errors.name}
        hint="Shown in history, e.g. Operating band"
      />
      <Input
        label="Runs each business day at"
        name="runAt"
        type="time"
        required
        defaultValue={editing?.runAt ?? "09:00"}
        error={errors.runAt}
        hint="The bank's clock"
      />
      <SenAccountSelect
        label="Keep this account"
        name="account"
        defaultValue={editing?.account}
        error={errors.account}
      />
      <SenAccountSelect
        label="Funded from and swept to"
        name="fundingAccount"
        defaultValue={editing?.fundingAccount}
        error={errors.fundingAccount}
      />
      <Input
        label="Lowest available balance"
        name="low"
        inputMode="decimal"
        required
        defaultValue={editing ? dollars(editing.lowCents) : undefined}
        error={errors.lowCents}
        hint="Dollars; below it the account is topped up to it"
      />
      <Input
        label="Highest available balance"
        name="high"
        inputMode="decimal"
        defaultValue={editing ? dollars(editing.highCents) : undefined}
        error={errors.highCents}
        hint="Dollars; above it the excess goes back. Empty: a target"
      />
      {errors.form ? <p className="text-sm font-medium text-rose-700 sm:col-span-2">{errors.form}</p> : null}
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : editing ? "Save changes" : "Set up sweep"}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Keep as it is
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function SweepCard({
  s,
  me,
  canPrepare,
  canApprove,
  busy,
  run,
  onChanged,
}: {
  s: Sweep;
  me: { id: string };
  canPrepare: boolean;
  canApprove: boolean;
  busy: boolean;
  run: RunAction;
  onChanged: (text: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const words = useAccountWords();
  const path = `/api/schedules/sweeps/${s.id}`;
  return (
    <Card aria-labelledby={`sweep-${s.id}`} className="p-4">
      <CardHeading headingId={`sweep-${s.id}`} item={s} />
      <p className="mt-1 text-sm text-slate-700">
        Keeps {words(s.account)}{" "}
        {s.lowCents === s.highCents ? (
          <>
            at <Money cents={s.lowCents} />
          </>
        ) : (
          <>
            between <Money cents={s.lowCents} /> and <Money cents={s.highCents} />
          </>
        )}
        , funded from and swept to {words(s.fundingAccount)}, each business day at {s.runAt}
      </p>
      <ProvenanceLine item={s} verb="Set up" />
      <div className="mt-3 flex flex-wrap gap-2">
        <ApprovePauseResume
          item={s}
          path={path}
          approveLabel="Approve sweep"
          me={me}
          canApprove={canApprove}
          canPrepare={canPrepare}
          resumedWords={`${s.name} runs again.`}
          busy={busy}
          run={run}
        />
        {canPrepare ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
          >
            Change
          </Button>
        ) : null}
        {canPrepare ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => run(path, undefined, `${s.name} is deleted.`, "DELETE")}
          >
            Delete sweep
          </Button>
        ) : null}
      </div>
      {editing ? (
        <div className="mt-3 rounded-md border border-slate-200 p-3">
          <SweepForm
            editing={s}
            onCancel={() => setEditing(false)}
            onDone={(text) => {
              setEditing(false);
              onChanged(text);
            }}
          />
        </div>
      ) : null}
      {s.lastMoves.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No moves yet.</p>
      ) : (
        <Table caption={`Last moves of ${s.name}`} captionHidden className="mt-3">
          <thead>
            <tr>
              <Th>Day</Th>
              <Th className={DESKTOP_ONLY}>Run</Th>
              <Th className={DESKTOP_ONLY}>Status</Th>
              <Th className="text-right">Amount</Th>
              <Th className={DESKTOP_ONLY}>Detail</Th>
            </tr>
          </thead>
          <tbody>
            {s.lastMoves.map((m) => {
              const run = m.slot === "run" ? "Daily run" : "Balance crossing";
              const detail = m.reason ? `${moveWords(s, m, words)}: ${m.reason}` : moveWords(s, m, words);
              const status = <StatusPill status={MOVE_WORDS[m.status]} />;
              return (
                <Tr key={m.key}>
                  <Td>
                    <span className="block whitespace-nowrap">{dayInWords(m.day)}</span>
                    {/* A phone has no Run, Status or Detail column: their words are here. */}
                    <span className="mt-1 block sm:hidden">{status}</span>
                    <span className="block text-xs break-words text-slate-600 sm:hidden">
                      {run} · {detail}
                    </span>
                  </Td>
                  <Td className={DESKTOP_ONLY}>{run}</Td>
                  <Td className={DESKTOP_ONLY}>{status}</Td>
                  <Td className="text-right align-top whitespace-nowrap sm:align-middle">
                    {m.amountCents ? <Money cents={m.amountCents} /> : "—"}
                  </Td>
                  <Td className={DESKTOP_ONLY}>{detail}</Td>
                </Tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
