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

/**
 * Pairs the characters of two values from the right (account and routing numbers end alike when a
 * fraudster keeps the last digits): true where the new value's character differs from the old's.
 */
export function differingCharacters(before: string, after: string): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i < after.length; i++) {
    const j = before.length - (after.length - i);
    out.push(j < 0 || before[j] !== after[i]);
  }
  return out;
}

function Marked({ value, other, label }: { value: string; other: string; label: string }) {
  const differs = differingCharacters(other, value);
  const count = differs.filter(Boolean).length;
  return (
    <span className="font-mono tabular-nums" data-field={label}>
      {[...value].map((ch, i) =>
        differs[i] ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: characters of one value, in order
          <mark key={i} className="rounded-sm bg-amber-200 font-bold text-slate-950 underline">
            {ch}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: characters of one value, in order
          <span key={i}>{ch}</span>
        ),
      )}
      <span className="sr-only"> ({count} characters differ)</span>
    </span>
  );
}

/**
 * For the person deciding a change: each field's whole old and new value, one above the other,
 * with the characters that differ marked, so that "••••3333 → ••••3333" cannot hide a new account.
 */
export function PayeeFieldDiff({ change }: { change: PayeeChange }) {
  return (
    <dl className="flex flex-col gap-2" data-payee-diff>
      {change.fields.map((f) => {
        const before = f.beforeFull ?? f.before;
        const after = f.afterFull ?? f.after;
        return (
          <div key={f.field} className="flex flex-col gap-0.5">
            <dt className="font-medium">{f.words}</dt>
            <dd className="flex flex-col gap-0.5 pl-2">
              <span>
                Old: {before ? <Marked value={before} other={after} label={`Old ${f.words}`} /> : "none"}
              </span>
              <span>
                New: {after ? <Marked value={after} other={before} label={`New ${f.words}`} /> : "none"}
              </span>
            </dd>
          </div>
        );
      })}
    </dl>
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
