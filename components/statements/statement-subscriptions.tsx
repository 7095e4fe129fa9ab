"use client";
// The subscriptions on the Statements page: each business day at 07:00 (the bank's clock), the
// prior-day BAI2 of chosen accounts e-mailed to chosen people; the deliveries of the last 90 days,
// each delivered file downloadable, each failed one with its reason. Administrators add and cancel
// subscriptions and retry a failed delivery; everyone may download.
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { CardBody, TitledCard } from "@/components/ui/card.tsx";
import { Checkbox, Input } from "@/components/ui/field.tsx";
import { apiFetch, failureMessage } from "@/lib/dashboard-api/fetch.ts";

export interface SubscriptionRow {
  id: string;
  name: string;
  accounts: string[];
  recipients: string[];
  startsOn: string;
  createdBy: string;
  cancelledAt: string | null;
}

export interface DeliveryRow {
  subscriptionId: string;
  businessDay: string;
  fromDay: string;
  toDay: string;
  status: "delivered" | "retrying" | "failed";
  fileName: string | null;
  attempts: number;
  reason: string | null;
  nextAttemptAt: string | null;
}

const STATUS_WORDS: Record<DeliveryRow["status"], string> = {
  delivered: "Delivered",
  retrying: "Retrying",
  failed: "Failed",
};

function toggle(list: string[], value: string, on: boolean): string[] {
  return on ? [...list, value] : list.filter((x) => x !== value);
}

export function StatementSubscriptions({
  initial,
  accounts,
  people,
  canManage,
}: {
  initial: { subscriptions: SubscriptionRow[]; deliveries: DeliveryRow[] };
  accounts: { accountNumber: string; name: string }[];
  people: string[];
  canManage: boolean;
}) {
  const [data, setData] = useState(initial);
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [recipients, setRecipients] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const names = new Map(data.subscriptions.map((s) => [s.id, s.name]));

  async function reload() {
    setData(
      (await apiFetch("/api/statements/subscriptions", { cache: "no-store" })) as {
        subscriptions: SubscriptionRow[];
        deliveries: DeliveryRow[];
      },
    );
  }

  async function create() {
    setMessage(null);
    setBusy(true);
    try {
      await apiFetch("/api/statements/subscriptions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: name.trim(), accounts: chosen, recipients }),
      });
      setName("");
      setChosen([]);
      setRecipients([]);
      await reload();
      setMessage("Subscribed: the first statement comes at 07:00 on the bank's next business day.");
    } catch (e) {
      setMessage(failureMessage(e, "The subscription could not be made."));
    } finally {
      setBusy(false);
    }
  }

  async function cancel(s: SubscriptionRow) {
    if (!window.confirm(`Cancel "${s.name}"? Its delivered statements stay for 90 days.`)) return;
    try {
      await apiFetch(`/api/statements/subscriptions/${s.id}`, { method: "DELETE" });
      await reload();
    } catch (e) {
      setMessage(failureMessage(e, "The subscription could not be cancelled."));
    }
  }

  async function retry(d: DeliveryRow) {
    setMessage(null);
    try {
      await apiFetch(`/api/statements/subscriptions/${d.subscriptionId}/deliveries/${d.businessDay}/retry`, {
        method: "POST",
      });
      await reload();
      setMessage(`The statement of ${d.businessDay} is sent again within a minute.`);
    } catch (e) {
      setMessage(failureMessage(e, "The delivery could not be retried."));
    }
  }

  const active = data.subscriptions.filter((s) => !s.cancelledAt);
  return (
    <TitledCard
      id="subscriptions-heading"
      title="Daily BAI2 by e-mail"
      description="Each business day at 07:00 (the bank's time), yesterday's BAI2 for the chosen accounts, e-mailed as an attachment and kept here for 90 days."
    >
      <CardBody className="flex flex-col gap-6">
        {active.length ? (
          <ul className="flex flex-col gap-2 text-sm">
            {active.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <span className="font-medium text-slate-900">{s.name}</span>: {s.accounts.join(", ")} to{" "}
                  {s.recipients.join(", ")} (from {s.startsOn})
                </span>
                {canManage ? (
                  <Button variant="secondary" size="sm" onClick={() => void cancel(s)}>
                    Cancel<span className="sr-only"> {s.name}</span>
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No subscription.</p>
        )}

        {canManage ? (
          <fieldset className="flex flex-col gap-3 border-t border-slate-200 pt-4">
            <legend className="text-sm font-semibold text-slate-900">New subscription</legend>
            <Input label="Name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
            <div className="flex flex-wrap gap-8">
              <div className="flex flex-col gap-2">
                <span className="text-sm font-medium text-slate-800">Accounts</span>
                {accounts.map((a) => (
                  <Checkbox
                    key={a.accountNumber}
                    label={`${a.name || "Account"} · ${a.accountNumber}`}
                    checked={chosen.includes(a.accountNumber)}
                    onChange={(e) => setChosen((c) => toggle(c, a.accountNumber, e.target.checked))}
                  />
                ))}
              </div>
              <div className="flex flex-col gap-2">
                <span className="text-sm font-medium text-slate-800">E-mail to</span>
                {people.map((p) => (
                  <Checkbox
                    key={p}
                    label={p}
                    checked={recipients.includes(p)}
                    onChange={(e) => setRecipients((c) => toggle(c, p, e.target.checked))}
                  />
                ))}
              </div>
            </div>
            <div>
              <Button onClick={() => void create()} disabled={busy}>
                {busy ? "Subscribing…" : "Subscribe"}
              </Button>
            </div>
          </fieldset>
        ) : null}
        <p role="status" className="text-sm text-slate-700">
          {message ?? ""}
        </p>

        <div className="border-t border-slate-200 pt-4">
          <h3 className="text-sm font-semibold text-slate-900">Deliveries in the last 90 days</h3>
          {data.deliveries.length ? (
            <ul className="mt-2 flex flex-col gap-1 text-sm">
              {data.deliveries.map((d) => (
                <li
                  key={`${d.subscriptionId}:${d.businessDay}`}
                  className="flex flex-wrap items-center gap-x-2 gap-y-1"
                >
                  <span
                    className={
                      d.status === "failed"
                        ? "font-medium text-red-800"
                        : d.status === "retrying"
                          ? "font-medium text-amber-800"
                          : "font-medium text-slate-700"
                    }
                  >
                    {STATUS_WORDS[d.status]}
                  </span>
                  {d.status === "delivered" && d.fileName ? (
                    <a
                      className="text-blue-800 underline"
                      href={`/api/statements/subscriptions/${d.subscriptionId}/deliveries/${d.businessDay}`}
                      download={d.fileName}
                    >
                      {d.fileName}
                    </a>
                  ) : null}
                  <span className="text-slate-600">
                    {names.get(d.subscriptionId) ?? "Subscription"}, {d.businessDay} ({d.fromDay} to {d.toDay}
                    )
                    {d.status === "retrying" && d.nextAttemptAt
                      ? `, attempt ${d.attempts + 1} from ${new Date(d.nextAttemptAt).toLocaleString()}`
                      : ""}
                    {d.status === "failed" ? `, after ${d.attempts} attempts` : ""}
                  </span>
                  {d.reason ? <span className="text-slate-700">Reason: {d.reason}</span> : null}
                  {d.status === "failed" && canManage ? (
                    <Button variant="secondary" size="sm" onClick={() => void retry(d)}>
                      Retry now<span className="sr-only"> {d.businessDay}</span>
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-slate-600">None yet.</p>
          )}
        </div>
      </CardBody>
    </TitledCard>
  );
}
