// /admin/audit: audit entries, newest first (audit.read), filtered by who, action and days in the
// dashboard's time zone through the URL (a plain GET form, so a filtered view can be shared), with
// a CSV export of the same filter. Each entry says what happened in words, its result as a status
// word, and opens to its detail (the bank's answer, amounts, the address it came from).
// Read-only by design.
import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge.tsx";
import { buttonClasses } from "@/components/ui/button.tsx";
import { Refusal } from "@/components/ui/refusal.tsx";
import { Table, Td, Th } from "@/components/ui/table.tsx";
import { accountNames } from "@/lib/accounts/views.ts";
import { auditActions, readAudit } from "@/lib/audit/log.ts";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { pageUser } from "@/lib/auth/session.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { config } from "@/lib/config.ts";
import { AuditQuery } from "@/lib/dashboard-api/index.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { auditActionWords, auditResultTone, auditResultWords } from "@/lib/format/audit-actions.ts";
import { formatInstant, timeZoneLabel } from "@/lib/format/dates.ts";
import { formatUsd } from "@/lib/format/money.ts";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

const LABEL = "flex flex-col gap-1 text-sm font-medium text-slate-800";
const CONTROL =
  "block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs focus-visible:border-brand-600";

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await pageUser("/admin/audit");
  if (!hasPermission(user.role, "audit.read"))
    return <Refusal title="Audit log">Only administrators can read the audit log.</Refusal>;
  const sp = await searchParams;
  const raw = { actor: one(sp.actor), action: one(sp.action), from: one(sp.from), to: one(sp.to) };
  const parsed = AuditQuery.safeParse(raw);
  const filter = parsed.success ? parsed.data : {};
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
  const db = await getDashboardDb();
  const timeZone = config().timeZone;
  const [entries, actions, names] = await Promise.all([
    readAudit(db, 200, { ...filter, timeZone }),
    auditActions(db),
    // An account named beside its number; the log reads as well without the bank.
    getBankClient()
      .then(accountNames)
      .catch(() => new Map<string, string>()),
  ]);
  const qs = new URLSearchParams(
    Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""),
  ).toString();
  const filtered = qs !== "";

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Audit log</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every sign-in, payment, decision and change, with the bank's answer. Entries are never changed or
          removed.
        </p>
      </div>
      <form
        method="get"
        action="/admin/audit"
        aria-label="Filter the audit log"
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[2fr_2fr_1fr_1fr_auto] lg:items-end"
      >
        <label className={LABEL}>
          Who (e-mail contains)
          <input name="actor" defaultValue={raw.actor ?? ""} className={CONTROL} autoComplete="off" />
        </label>
        <label className={LABEL}>
          Action
          <select name="action" defaultValue={raw.action ?? ""} className={CONTROL}>
            <option value="">Any action</option>
            {actions.map((a) => {
              const words = auditActionWords(a);
              return (
                <option key={a} value={a}>
                  {words === a ? a : `${words} (${a})`}
                </option>
              );
            })}
          </select>
        </label>
        <label className={LABEL}>
          From
          <input type="date" name="from" defaultValue={raw.from ?? ""} className={CONTROL} />
        </label>
        <label className={LABEL}>
          To
          <input type="date" name="to" defaultValue={raw.to ?? ""} className={CONTROL} />
        </label>
        <div className="flex gap-2">
          <button type="submit" className={buttonClasses("primary")}>
            Filter
          </button>
          {filtered ? (
            <a href="/admin/audit" className={buttonClasses("ghost")}>
              Clear
            </a>
          ) : null}
        </div>
      </form>
      {problems.length ? (
        <p
          role="alert"
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          The filter was not applied: {problems.join("; ")}.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          {entries.length === 200
            ? "The latest 200 entries"
            : `${entries.length} ${entries.length === 1 ? "entry" : "entries"}`}
          {filtered ? " matching the filter" : ""}, newest first.
        </p>
        <a
          href={`/api/admin/audit/export${qs ? `?${qs}` : ""}`}
          className={buttonClasses("secondary", "sm")}
          download
        >
          Export CSV
        </a>
      </div>
      <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <Table
          caption="Audit entries, newest first"
          captionHidden
          className="stack-on-phone sm:min-w-[48rem]"
        >
          <thead>
            <tr>
              <Th>When ({timeZoneLabel(timeZone)})</Th>
              <Th>Who</Th>
              <Th>What</Th>
              <Th>Target</Th>
              <Th>Result</Th>
              <Th>Detail</Th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <Td data-label="When" className="tabular-nums sm:whitespace-nowrap">
                  {formatInstant(e.at, timeZone)}
                </Td>
                <Td data-label="Who" className="break-all">
                  {e.actorEmail ?? "—"}
                </Td>
                <Td data-label="What">
                  <span className="block text-slate-900">{auditActionWords(e.action)}</span>
                  <span className="block font-mono text-xs text-slate-600">{e.action}</span>
                </Td>
                <Td data-label="Target" className="text-xs break-all">
                  {e.target && names.get(e.target) ? (
                    <span className="block text-sm text-slate-900">{names.get(e.target)}</span>
                  ) : null}
                  <span className="font-mono">{e.target ?? "—"}</span>
                </Td>
                <Td data-label="Result">
                  <Badge tone={auditResultTone(e.result)}>{auditResultWords(e.result)}</Badge>
                </Td>
                <Td data-label="Detail">
                  <EntryDetail detail={e.detail} ip={e.ip} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {entries.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-slate-600">No entries.</p>
        ) : null}
      </div>
    </div>
  );
}

/** A value of an entry's detail as text: amounts in cents also in dollars, objects as JSON. */
function detailText(key: string, value: unknown): string {
  if (typeof value === "number" && /Cents$/.test(key) && Number.isSafeInteger(value))
    return `${value} (${formatUsd(value)})`;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** An entry's detail, folded: what was sent, the bank's answer, and where the request came from. */
function EntryDetail({ detail, ip }: { detail: Record<string, unknown> | null; ip: string | null }) {
  const fields = Object.entries(detail ?? {});
  if (ip) fields.push(["ip", ip]);
  if (!fields.length) return <span className="text-slate-500">—</span>;
  return (
    <details className="group">
      <summary className="cursor-pointer text-sm text-brand-700 underline-offset-2 hover:underline">
        {fields.length} {fields.length === 1 ? "field" : "fields"}
      </summary>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
        {fields.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-mono text-slate-600">{key}</dt>
            <dd className="font-mono break-all whitespace-pre-wrap text-slate-900">
              {detailText(key, value)}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
