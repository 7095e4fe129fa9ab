"use client";
// The approval policies in force, in words; a form that states one more, previews what the set
// would have required of the last 30 days of payments, and asks a second administrator; and the
// change waiting for them, which another administrator approves here.
import { useState } from "react";
import { PendingChanges } from "@/components/admin/pending-changes.tsx";
import { Button } from "@/components/ui/button.tsx";
import { DESKTOP_ONLY, Table, Td, Th } from "@/components/ui/table.tsx";
import { type Policy, RAIL_WORDS, RAILS, type Rail } from "@/lib/approvals/policy.ts";
import { ApiError, apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type {
  PoliciesResponse,
  PolicyPreviewResponse,
  PolicySetInput,
} from "@/lib/dashboard-api/policies.ts";
import { readTypedDollars } from "@/lib/form-rules/typed-dollars.ts";
import { formatUsd } from "@/lib/format/money.ts";

type Person = { id: string; email: string };

function conditionWords(p: Policy, people: Person[]): string {
  const w = p.when;
  const who = (ids: string[]) => ids.map((id) => people.find((x) => x.id === id)?.email ?? id).join(", ");
  return [
    w.rails ? w.rails.map((r) => RAIL_WORDS[r]).join(" or ") : "Every payment",
    w.aboveCents !== undefined ? `over ${formatUsd(w.aboveCents)}` : "",
    w.upToCents !== undefined ? `up to ${formatUsd(w.upToCents)}` : "",
    w.sourceAccounts ? `from ${w.sourceAccounts.join(", ")}` : "",
    w.payeeNewWithinDays !== undefined
      ? `to a payee new or changed in the last ${w.payeeNewWithinDays} days`
      : "",
    w.preparerIds ? `prepared by ${who(w.preparerIds)}` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

const inputClass = "mt-1 block w-full rounded border border-slate-300 px-3 py-2 text-sm";

export function PoliciesAdmin({
  initial,
  people,
  currentUserId,
}: {
  initial: PoliciesResponse;
  people: Person[];
  currentUserId: string;
}) {
  const [current, setCurrent] = useState(initial);
  const [name, setName] = useState("");
  const [rail, setRail] = useState<Rail>("wire");
  const [above, setAbove] = useState("");
  const [days, setDays] = useState("");
  const [approvers, setApprovers] = useState<0 | 1 | 2 | 3>(2);
  const [group, setGroup] = useState<string[]>([]);
  const [groupName, setGroupName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [preview, setPreview] = useState<PolicyPreviewResponse | null>(null);

  const reload = async () =>
    setCurrent((await apiFetch("/api/admin/policies", { cache: "no-store" })) as PoliciesResponse);

  /** The set in force with the policy the form states, or why the form is not yet a policy. */
  function proposed(): PolicySetInput | string {
    if (!name.trim()) return "Name the policy.";
    let aboveCents: number | undefined;
    if (above.trim()) {
      const read = readTypedDollars(above, {});
      if (!read.ok) return "Enter the amount in dollars, for example 1,000,000.00.";
      aboveCents = read.cents;
    }
    const n = days.trim() ? Number(days) : undefined;
    if (n !== undefined && !(Number.isInteger(n) && n >= 1 && n <= 365))
      return "Days must be a whole number from 1 to 365.";
    const policy: Policy = {
      id: `policy-${Date.now().toString(36)}`,
      name: name.trim(),
      when: {
        rails: [rail],
        ...(aboveCents !== undefined ? { aboveCents } : {}),
        ...(n !== undefined ? { payeeNewWithinDays: n } : {}),
      },
      approvers,
      ...(group.length ? { group: { name: groupName.trim() || "Named approvers", userIds: group } } : {}),
    };
    return { policies: [...current.set.policies, policy], velocity: current.set.velocity };
  }

  async function send(path: string, method: string) {
    const set = proposed();
    if (typeof set === "string") {
      setProblem(set);
      return null;
    }
    setProblem(null);
    try {
      return await apiFetch(path, {
        method,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(set),
      });
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : "The request failed. Try again.");
      return null;
    }
  }

  return (
    <div className="space-y-6">
      <div role="status" aria-live="polite" className="text-sm text-green-800">
        {status}
      </div>
      <Table caption={`Policies in force${current.isDefault ? " (today's thresholds)" : ""}`}>
        <thead>
          <tr>
            <Th>Policy</Th>
            <Th>Approvers</Th>
            <Th className={DESKTOP_ONLY}>Who may approve</Th>
          </tr>
        </thead>
        <tbody>
          {current.set.policies.map((p) => {
            const when = conditionWords(p, people);
            const who = p.group
              ? `${p.group.name}: ${p.group.userIds.map((id) => people.find((x) => x.id === id)?.email ?? id).join(", ")}`
              : "Any approver";
            return (
              <tr key={p.id}>
                <Td>
                  <span className="font-medium text-slate-900">{p.name}</span>
                  {/* A policy named after its condition says it once. */}
                  {when === p.name ? null : <span className="block text-slate-600">{when}</span>}
                  {/* On a phone the third column is folded in here. */}
                  <span className="block text-slate-600 sm:hidden">{who}</span>
                </Td>
                <Td>{p.approvers}</Td>
                <Td className={DESKTOP_ONLY}>{who}</Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <p className="text-sm text-slate-700">
        Daily totals: a preparer's SEN transfers sent alone stop at{" "}
        {current.set.velocity.perPreparerDailyCents === null
          ? "no limit"
          : formatUsd(current.set.velocity.perPreparerDailyCents)}{" "}
        a day, an account's at{" "}
        {current.set.velocity.perAccountDailyCents === null
          ? "no limit"
          : formatUsd(current.set.velocity.perAccountDailyCents)}
        .
      </p>

      <PendingChanges
        changes={current.pending}
        currentUserId={currentUserId}
        caption="Policy changes waiting for approval"
        onDecided={reload}
      />

      <form
        className="space-y-4"
        aria-labelledby="add-policy"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = (await send("/api/admin/policies", "PUT")) as PoliciesResponse | null;
          if (r) {
            setCurrent(r);
            setStatus("Asked: the policies change once a second administrator approves.");
          }
        }}
      >
        <h2 id="add-policy" className="text-lg font-semibold text-slate-900">
          Add a policy
        </h2>
        {problem ? (
          <p role="alert" className="text-sm text-red-800">
            {problem}
          </p>
        ) : null}
        <div className="grid gap-4 md:grid-cols-2">
          <label className="block text-sm font-medium text-slate-700">
            Name, as the release dialog says it
            <input
              className={inputClass}
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={120}
            />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Rail
            <select className={inputClass} value={rail} onChange={(e) => setRail(e.target.value as Rail)}>
              {RAILS.map((r) => (
                <option key={r} value={r}>
                  {RAIL_WORDS[r]}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Amount over (USD, blank for any)
            <input
              className={inputClass}
              inputMode="decimal"
              value={above}
              onChange={(e) => setAbove(e.target.value)}
            />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Payee new or changed in the last (days, blank for any payee)
            <input
              className={inputClass}
              inputMode="numeric"
              value={days}
              onChange={(e) => setDays(e.target.value)}
            />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Approvers required
            <select
              className={inputClass}
              value={approvers}
              onChange={(e) => setApprovers(Number(e.target.value) as 0 | 1 | 2 | 3)}
            >
              {[0, 1, 2, 3].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Group name (when only some may approve)
            <input
              className={inputClass}
              value={groupName}
              onChange={(e) => setGroupName(e.target.value)}
              maxLength={80}
            />
          </label>
        </div>
        <fieldset className="text-sm">
          <legend className="font-medium text-slate-700">Who may approve (none ticked: any approver)</legend>
          {people.map((p) => (
            <label key={p.id} className="mr-4 inline-flex items-center gap-2">
              <input
                type="checkbox"
                checked={group.includes(p.id)}
                onChange={(e) =>
                  setGroup(e.target.checked ? [...group, p.id] : group.filter((x) => x !== p.id))
                }
              />
              {p.email}
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Button
            type="button"
            variant="secondary"
            onClick={async () => {
              const r = (await send("/api/admin/policies/preview", "POST")) as PolicyPreviewResponse | null;
              if (r) setPreview(r);
            }}
          >
            Preview the last 30 days
          </Button>
          <Button type="submit">Ask a second administrator</Button>
        </div>
      </form>

      {preview ? (
        <Table caption="What this set would have required of the last 30 days" scrollable>
          <thead>
            <tr>
              <Th>Rail</Th>
              <Th>Payments</Th>
              <Th>More approvers</Th>
              <Th>Fewer approvers</Th>
              <Th>For example</Th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r) => (
              <tr key={r.rail}>
                <Td>{RAIL_WORDS[r.rail]}</Td>
                <Td>{r.payments}</Td>
                <Td>{r.more}</Td>
                <Td>{r.fewer}</Td>
                <Td>{r.examples.join("; ") || "No change"}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
    </div>
  );
}
