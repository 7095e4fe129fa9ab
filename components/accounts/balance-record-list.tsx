import type { ReactNode } from "react";
import type { BalanceRecord } from "@/lib/bank-api/accounts.ts";
import { formatDay } from "@/lib/format/dates.ts";
import { formatDollarNumber } from "@/lib/format/money.ts";

type Kind = "money" | "date" | "flag" | "text";
interface FieldDef {
  key: string;
  label: string;
  kind: Kind;
}

/** Fields of one kind from [wire name, label] pairs. */
function fields(kind: Kind, list: [key: string, label: string][]): FieldDef[] {
  return list.map(([key, label]) => ({ key, label, kind }));
}

// Every field of the bank's balance record, grouped for reading; the wire name sits beside each
// label so a conversation with the bank can name the exact field.
const GROUPS: { title: string; fields: FieldDef[] }[] = [
  {
    title: "Balances",
    fields: fields("money", [
      ["AVAILBAL", "Available balance"],
      ["CURRBAL", "Current balance"],
      ["TOTALHOLDS", "Total holds"],
      ["HOLDSAMT", "Holds amount"],
      ["LSTDEPAMT", "Last deposit amount"],
      ["LSTSTMTBAL", "Last statement balance"],
      ["ACCRINT", "Accrued interest"],
      ["YTDINT", "Interest year to date"],
      ["DDAVAAMT", "DDA available amount"],
      ["DYNAVAAMT", "Dynamic available amount"],
      ["RRSAVAAMT", "Savings available amount"],
      ["LNAVAAMT", "Loan available amount"],
      ["ODLMTAMT", "Overdraft limit"],
      ["CUSTFLTAMT", "Customer float"],
      ["BNKFLTAMT", "Bank float"],
      ["CHKSPDTDYA", "Checks paid today"],
    ]),
  },
  {
    title: "Dates",
    fields: fields("date", [
      ["ACTOPNDT", "Opened"],
      ["LSTDEPDT", "Last deposit"],
      ["LSTSTMTDT", "Last statement"],
    ]),
  },
  {
    title: "Flags",
    fields: fields("flag", [
      ["HOLDSFLAG", "Holds on the account"],
      ["DDAVAFLG", "DDA available amount applies"],
      ["DYNAVAFLG", "Dynamic available amount applies"],
      ["RRSAVAFLG", "Savings available amount applies"],
      ["LNAVAFLG", "Loan available amount applies"],
      ["ODLMTFLG", "Overdraft limit applies"],
      ["CUSTFLTFLG", "Customer float applies"],
      ["BNKFLTFLG", "Bank float applies"],
      ["CHKSPDTDY", "Checks paid today"],
    ]),
  },
  {
    title: "Account",
    fields: fields("text", [
      ["ACTNBR", "Account number"],
      ["SHORTNAME", "Short name"],
      ["STATUS", "Status code"],
      ["STATDESC", "Status"],
      ["OFFICERCD", "Officer"],
      ["OFFICERCD2", "Second officer"],
    ]),
  },
];

// The rolling averages are objects (period → amount): one row per period, or one saying so.
const AVERAGES = [
  { key: "AVGROLBAL", each: "Balance", none: "Average balance" },
  { key: "AVGROLCOL", each: "Collected", none: "Average collected balance" },
];

const KNOWN = new Set([...GROUPS.flatMap((g) => g.fields.map((f) => f.key)), ...AVERAGES.map((a) => a.key)]);

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

function Group({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`balance-group-${id}`}>
      <h3
        id={`balance-group-${id}`}
        className="mb-1 text-sm font-semibold tracking-wide text-brand-800 uppercase"
      >
        {title}
      </h3>
      <dl>{children}</dl>
    </section>
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
  return (
    <div className="gap-x-10 lg:columns-2 [&>section]:mb-6 [&>section]:break-inside-avoid">
      {GROUPS.map((g) => (
        <Group key={g.title} id={g.title} title={g.title}>
          {g.fields.map((f) => (
            <Row
              key={f.key}
              label={f.label}
              wire={f.key}
              value={display(f.kind, r[f.key])}
              numeric={f.kind === "money"}
            />
          ))}
        </Group>
      ))}
      <Group id="averages" title="Rolling averages">
        {AVERAGES.map((a) => {
          const rows = averages(r, a.key);
          return rows.length ? (
            rows.map(([k, v]) => (
              <Row key={`${a.key}-${k}`} label={`${a.each} ${k}`} wire={a.key} value={v} />
            ))
          ) : (
            <Row key={a.key} label={a.none} wire={a.key} value="Not reported" />
          );
        })}
        {other.map((k) => (
          <Row key={k} label={k} wire={k} value={display("text", r[k])} />
        ))}
      </Group>
    </div>
  );
}
