"use client";
// The Statements form: accounts, a range (the previous business day, last week, last month or
// custom) and a format;
// Download fetches the file from /api/statements/* (CSV: each account's history) and saves it,
// or shows the server's reason when it refuses.
import { useId, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardBody, CardHeader } from "@/components/ui/card.tsx";
import { Checkbox, Input } from "@/components/ui/field.tsx";
import {
  checkStatementQuery,
  type StatementPreset as Preset,
  statementRange as rangeOf,
  type StatementFormat,
} from "@/lib/statements/query.ts";

const FIELD_NAMES = { account: "Accounts", from: "From", to: "To" } as const;

type Format = StatementFormat | "csv";

const FORMATS: { value: Format; label: string; purpose: string }[] = [
  {
    value: "bai2",
    label: "BAI2",
    purpose:
      "Prior-day balances and transactions in the US banks' standard file; NetSuite, Oracle, Acumatica and most US ERPs import it.",
  },
  {
    value: "camt053",
    label: "camt.053",
    purpose:
      "ISO 20022 end-of-day statement, one per account and day; SAP, Oracle, Microsoft Dynamics and European ERPs import it.",
  },
  {
    value: "camt052",
    label: "camt.052",
    purpose:
      "ISO 20022 intraday report of today so far, wires still held shown as pending: for the day's cash position.",
  },
  {
    value: "csv",
    label: "CSV",
    purpose:
      "The transactions as a spreadsheet, one file per account: for reading, not for an ERP to import.",
  },
];

const PRESETS: { value: Preset; label: string }[] = [
  { value: "previous-business-day", label: "Previous business day" },
  { value: "last-week", label: "Last week" },
  { value: "last-month", label: "Last month" },
  { value: "custom", label: "Custom range" },
];

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function refusal(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as {
      error?: { message?: string; fields?: { field: string; message: string }[] };
    };
    const fields = body.error?.fields?.map((f) => `${f.field}: ${f.message}`).join(" ");
    return fields || body.error?.message || `The download failed (${res.status}).`;
  } catch {
    return `The download failed (${res.status}).`;
  }
}

export function StatementsForm({
  accounts,
  today,
  preselected,
}: {
  accounts: { accountNumber: string; name: string }[];
  today: string;
  preselected: string[];
}) {
  const [chosen, setChosen] = useState<string[]>(() => {
    const known = preselected.filter((a) => accounts.some((x) => x.accountNumber === a));
    return known.length ? known : accounts.map((a) => a.accountNumber);
  });
  const [preset, setPreset] = useState<Preset>("previous-business-day");
  const [custom, setCustom] = useState(() => rangeOf("last-week", today));
  const [format, setFormat] = useState<Format>("bai2");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "done"; text: string } | null>(null);
  const presetName = useId();
  const formatName = useId();
  const range = preset === "custom" ? custom : rangeOf(preset, today);

  async function download() {
    setMessage(null);
    // The route's own rule (lib/statements/query.ts), the CSV's range included.
    const checked = checkStatementQuery(
      format === "csv" ? "bai2" : format,
      { account: chosen, from: range.from, to: range.to },
      today,
      accounts.map((a) => a.accountNumber),
    );
    if (!checked.ok) {
      setMessage({
        kind: "error",
        text: checked.fields.map((f) => `${FIELD_NAMES[f.field]}: ${f.message}`).join(" "),
      });
      return;
    }
    setBusy(true);
    try {
      if (format === "csv") {
        const { historyCsvFilename, historyToCsv } = await import("@/lib/format/history-csv.ts");
        for (const account of chosen) {
          const res = await fetch(
            `/api/accounts/${account}/history?from=${range.from}&to=${range.to}&order=A`,
            { headers: { accept: "application/json" } },
          );
          if (!res.ok) throw new Error(await refusal(res));
          const body = await res.json();
          save(
            new Blob(["\uFEFF", historyToCsv(body.items)], { type: "text/csv;charset=utf-8" }),
            historyCsvFilename(account, range.from, range.to, false),
          );
        }
      } else {
        const q = new URLSearchParams();
        for (const a of chosen) q.append("account", a);
        if (format !== "camt052") {
          q.set("from", range.from);
          q.set("to", range.to);
        }
        const res = await fetch(`/api/statements/${format}?${q}`);
        if (!res.ok) throw new Error(await refusal(res));
        const name =
          /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `${format}.txt`;
        save(await res.blob(), name);
      }
      setMessage({ kind: "done", text: "Downloaded." });
    } catch (e) {
      setMessage({ kind: "error", text: e instanceof Error ? e.message : "The download failed." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="statement-heading">
      <CardHeader id="statement-heading" title="Download a statement" />
      <CardBody className="flex flex-col gap-6">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-semibold text-slate-900">Accounts</legend>
          {accounts.map((a) => (
            <Checkbox
              key={a.accountNumber}
              label={`${a.name || "Account"} · ${a.accountNumber}`}
              checked={chosen.includes(a.accountNumber)}
              onChange={(e) =>
                setChosen((c) =>
                  e.target.checked ? [...c, a.accountNumber] : c.filter((x) => x !== a.accountNumber),
                )
              }
            />
          ))}
        </fieldset>

        <fieldset className="flex flex-col gap-2" disabled={format === "camt052"}>
          <legend className="mb-1 text-sm font-semibold text-slate-900">
            Range{format === "camt052" ? " (camt.052 reports today so far)" : ""}
          </legend>
          <div className="flex flex-wrap gap-4">
            {PRESETS.map((p) => (
              <label key={p.value} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name={presetName}
                  value={p.value}
                  checked={preset === p.value}
                  onChange={() => setPreset(p.value)}
                  className="size-4 text-brand-700"
                />
                {p.label}
              </label>
            ))}
          </div>
          {preset === "custom" ? (
            <div className="flex flex-wrap gap-4">
              <Input
                label="From"
                type="date"
                value={custom.from}
                onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))}
              />
              <Input
                label="To"
                type="date"
                value={custom.to}
                onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))}
              />
            </div>
          ) : (
            <p className="text-sm text-slate-600">
              {range.from === range.to ? range.from : `${range.from} to ${range.to}`}
            </p>
          )}
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 text-sm font-semibold text-slate-900">Format</legend>
          {FORMATS.map((f) => (
            <label key={f.value} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={formatName}
                value={f.value}
                checked={format === f.value}
                onChange={() => setFormat(f.value)}
                className="mt-0.5 size-4 text-brand-700"
              />
              <span>
                <span className="font-medium">{f.label}</span>
                <span className="block text-slate-600">{f.purpose}</span>
              </span>
            </label>
          ))}
        </fieldset>

        <div className="flex flex-wrap items-center gap-4">
          <Button onClick={() => void download()} disabled={busy} aria-busy={busy || undefined}>
            {busy ? "Downloading…" : "Download"}
          </Button>
          <p
            role={message?.kind === "error" ? "alert" : "status"}
            className={message?.kind === "error" ? "text-sm text-red-700" : "text-sm text-slate-700"}
          >
            {message?.text ?? ""}
          </p>
        </div>
      </CardBody>
    </Card>
  );
}
