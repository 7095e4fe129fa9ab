// A change to where a saved beneficiary's money lands, as an approver and a releaser read it:
// each field before and after (account numbers and bank ids masked), who changed it and when, and
// who approved it. The release dialog warns with the changes of the last 30 days.
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import type { PayeeChange } from "@/lib/dashboard-api/wires.ts";
import { formatInstant } from "@/lib/format/dates.ts";

/** Field by field: "Account number: ••••1234 → ••••7777". */
export function PayeeFieldList({ change }: { change: PayeeChange }) {
  return (
    <ul className="list-disc pl-5">
      {change.fields.map((f) => (
        <li key={f.field}>
          {f.words}:{" "}
          {change.kind === "create" ? (
            <span className="tabular-nums">{f.after}</span>
          ) : (
            <>
              <span className="tabular-nums">{f.before || "none"}</span>
              <span aria-hidden="true"> → </span>
              <span className="sr-only"> changed to </span>
              <span className="font-semibold tabular-nums">{f.after || "none"}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Who made a change and when, and who decided it. */
export function PayeeChangeWho({ change, me }: { change: PayeeChange; me?: string }) {
  const timeZone = useBusinessTimeZone();
  const who = (p: { id: string; email: string }) => (p.id === me ? "you" : p.email);
  const verb = change.kind === "create" ? "Added" : "Changed";
  return (
    <p>
      {verb} by {who(change.changedBy)}, {formatInstant(change.changedAt, timeZone)}
      {change.decidedBy && change.decidedAt ? (
        <>
          ; {change.status} by {who(change.decidedBy)}, {formatInstant(change.decidedAt, timeZone)}
        </>
      ) : null}
      .
    </p>
  );
}

function headline(c: PayeeChange): string {
  if (c.kind === "create")
    return c.status === "pending" ? "a new beneficiary, waiting for approval" : "a new beneficiary";
  return c.status === "pending"
    ? "a change to its account or bank details waits for approval"
    : "account or bank details changed";
}

/** The release dialog's warning: the beneficiary's details changed recently, or a change waits now. */
export function RecentPayeeChanges({ changes }: { changes: PayeeChange[] }) {
  if (!changes.length) return null;
  return (
    <section
      aria-labelledby="payee-changes-heading"
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <h3 id="payee-changes-heading" className="font-semibold">
        Beneficiary details changed in the last 30 days
      </h3>
      <p>Check the account with the beneficiary through a contact you already knew before releasing.</p>
      {changes.map((c) => (
        <div key={c.id} className="flex flex-col gap-1">
          <p className="font-medium">
            “{c.label}”: {headline(c)}
          </p>
          {c.kind === "change" ? <PayeeFieldList change={c} /> : null}
          <PayeeChangeWho change={c} />
        </div>
      ))}
    </section>
  );
}
