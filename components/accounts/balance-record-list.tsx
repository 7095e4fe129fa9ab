import type { BalanceRecord } from "@/lib/bank-api/accounts.ts";
import { formatDay } from "@/lib/format/dates.ts";
import { formatDollarNumber } from "@/lib/format/money.ts";

type Kind = "money" | "date" | "flag" | "text";
interface FieldDef {
  key: string;
  label: string;
  kind: Kind;
}

// Every field of the bank's balance record, grouped for reading; the wire name sits beside each
// label so a conversation with the bank can name the exact field.
const GROUPS: { title: string; fields: FieldDef[] }[] = [
  {
    title: "Balances",
    fields: [
      { key: "AVAILBAL", label: "Available balance", kind: "money" },
      { key: "CURRBAL", label: "Current balance", kind: "money" },
      { key: "TOTALHOLDS", label: "Total holds", kind: "money" },
      { key: "HOLDSAMT", label: "Holds amount", kind: "money" },
      { key: "LSTDEPAMT", label: "Last deposit amount", kind: "money" },
      { key: "LSTSTMTBAL", label: "Last statement balance", kind: "money" },
      { key: "ACCRINT", label: "Accrued interest", kind: "money" },
      { key: "YTDINT", label: "Interest year to date", kind: "money" },
      { key: "DDAVAAMT", label: "DDA available amount", kind: "money" },
      { key: "DYNAVAAMT", label: "Dynamic available amount", kind: "money" },
      { key: "RRSAVAAMT", label: "Savings available amount", kind: "money" },
      { key: "LNAVAAMT", label: "Loan available amount", kind: "money" },
      { key: "ODLMTAMT", label: "Overdraft limit", kind: "money" },
      { key: "CUSTFLTAMT", label: "Customer float", kind: "money" },
      { key: "BNKFLTAMT", label: "Bank float", kind: "money" },
      { key: "CHKSPDTDYA", label: "Checks paid today", kind: "money" },
    ],
  },
  {
    title: "Dates",
    fields: [
      { key: "ACTOPNDT", label: "Opened", kind: "date" },
      { key: "LSTDEPDT", label: "Last deposit", kind: "date" },
      { key: "LSTSTMTDT", label: "Last statement", kind: "date" },
    ],
  },
  {
    title: "Flags",
    fields: [
      { key: "HOLDSFLAG", label: "Holds on the account", kind: "flag" },
      { key: "DDAVAFLG", label: "DDA available amount applies", kind: "flag" },
      { key: "DYNAVAFLG", label: "Dynamic available amount applies", kind: "flag" },
      { key: "RRSAVAFLG", label: "Savings available amount applies", kind: "flag" },
      { key: "LNAVAFLG", label: "Loan available amount applies", kind: "flag" },
      { key: "ODLMTFLG", label: "Overdraft limit applies", kind: "flag" },
      { key: "CUSTFLTFLG", label: "Customer float applies", kind: "flag" },
      { key: "BNKFLTFLG", label: "Bank float applies", kind: "flag" },
      { key: "CHKSPDTDY", label: "Checks paid today", kind: "flag" },
    ],
  },
  {
    title: "Account",
    fields: [
      { key: "ACTNBR", label: "Account number", kind: "text" },
      { key: "SHORTNAME", label: "Short name", kind: "text" },
      { key: "STATUS", label: "Status code", kind: "text" },
      { key: "STATDESC", label: "Status", kind: "text" },
      { key: "OFFICERCD", label: "Officer", kind: "text" },
      { key: "OFFICERCD2", label: "Second officer", kind: "text" },
    ],
  },
];

const KNOWN = new Set([...GROUPS.flatMap((g) => g.fields.map((f) => f.key)), "AVGROLBAL", "AVGROLCOL"]);

function display(kind: Kind, value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  if (kind === "money" && typeof value === "number") return formatDollarNumber(value);
  if (kind === "date" && typeof value === "string") return formatDay(value);
  if (kind === "flag" && typeof value === "string") {
    const v = value.trim().toUpperCase();
    return v === "Y" ? "Yes" : v === "N" ? "No" : value;
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function Row({
  label,
  wire,
  value,
  numeric,
}: {
  label: string;
  wire: string;
  value: string;
  numeric?: boolean;
}) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-slate-100 py-2 last:border-b-0">
      <dt className="text-sm text-slate-700">
        {label} <span className="ml-1 font-mono text-[0.7rem] text-slate-600">{wire}</span>
      </dt>
      <dd
        className={
          numeric
            ? "text-right text-sm font-medium text-slate-900 tabular-nums"
            : "text-right text-sm font-medium text-slate-900"
        }
      >
        {value}
      </dd>
    </div>
  );
}

function averages(record: Record<string, unknown>, key: string): [string, string][] {
  const obj = record[key];
  if (!obj || typeof obj !== "object") return [];
  return Object.entries(obj as Record<string, unknown>).map(([k, v]) => [k, display("text", v)]);
}

/** The bank's full balance record as grouped definition lists. */
export function BalanceRecordList({ record }: { record: BalanceRecord }) {
  const r = record as unknown as Record<string, unknown>;
  const other = Object.keys(r).filter((k) => !KNOWN.has(k));
  const avgBal = averages(r, "AVGROLBAL");
  const avgCol = averages(r, "AVGROLCOL");
  return (
    <div className="gap-x-10 lg:columns-2 [&>section]:mb-6 [&>section]:break-inside-avoid">
      {GROUPS.map((g) => (
        <section key={g.title} aria-labelledby={`balance-group-${g.title}`}>
          <h3
            id={`balance-group-${g.title}`}
            className="mb-1 text-sm font-semibold tracking-wide text-brand-800 uppercase"
          >
            {g.title}
          </h3>
          <dl>
            {g.fields.map((f) => (
              <Row
                key={f.key}
                label={f.label}
                wire={f.key}
                value={display(f.kind, r[f.key])}
                numeric={f.kind === "money"}
              />
            ))}
          </dl>
        </section>
      ))}
      <section aria-labelledby="balance-group-averages">
        <h3
          id="balance-group-averages"
          className="mb-1 text-sm font-semibold tracking-wide text-brand-800 uppercase"
        >
          Rolling averages
        </h3>
        <dl>
          {avgBal.length ? (
            avgBal.map(([k, v]) => <Row key={`bal-${k}`} label={`Balance ${k}`} wire="AVGROLBAL" value={v} />)
          ) : (
            <Row label="Average balance" wire="AVGROLBAL" value="Not reported" />
          )}
          {avgCol.length ? (
            avgCol.map(([k, v]) => (
              <Row key={`col-${k}`} label={`Collected ${k}`} wire="AVGROLCOL" value={v} />
            ))
          ) : (
            <Row label="Average collected balance" wire="AVGROLCOL" value="Not reported" />
          )}
          {other.map((k) => (
            <Row key={k} label={k} wire={k} value={display("text", r[k])} />
          ))}
        </dl>
      </section>
    </div>
  );
}
