// The one rule of a statement's query, for the Statements form (before it asks) and the download
// route (which answers 400 naming the field): accounts (the customer's, 1 to 50), and for the
// day-by-day files a range of real days, `from` on or before `to`, at most 93 days. Plain zod and
// plain date functions: the browser loads it as the server does.
import { z } from "zod";
import { addBusinessDays } from "../bank-api/business-days.ts";
import { addDays } from "../bank-api/dates.ts";
import { isCalendarDay, spanProblem } from "../history/range-check.ts";

export const STATEMENT_FORMATS = ["bai2", "camt053", "camt052"] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** The longest range one file covers, as history's. */
export const STATEMENT_MAX_DAYS = 93;
/** Accounts one file may hold. */
export const STATEMENT_MAX_ACCOUNTS = 50;

const accountNumber = z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)");
const day = (which: string) =>
  z
    .string({ error: `Enter ${which} date.` })
    .refine(isCalendarDay, `Enter ${which} date as a real day (YYYY-MM-DD).`);

/**
 * The query's schema; `customerAccounts`, where known (the form's list), refuses any other account
 * here already (the route asks the bank instead, and answers 404).
 */
export function statementQuerySchema(format: StatementFormat, customerAccounts?: readonly string[]) {
  const accounts = z
    .array(accountNumber, { error: "Choose at least one account." })
    .min(1, "Choose at least one account.")
    .max(STATEMENT_MAX_ACCOUNTS, `Choose at most ${STATEMENT_MAX_ACCOUNTS} accounts.`)
    .superRefine((list, ctx) => {
      if (!customerAccounts) return;
      for (const a of list)
        if (!customerAccounts.includes(a))
          ctx.addIssue({ code: "custom", message: `Account ${a} is not one of this customer's accounts.` });
    });
  if (format === "camt052") return z.object({ account: accounts });
  return z.object({ account: accounts, from: day("a start"), to: day("an end") }).superRefine((q, ctx) => {
    if (!isCalendarDay(q.from) || !isCalendarDay(q.to)) return;
    const message = spanProblem(q.from, q.to, STATEMENT_MAX_DAYS);
    if (message) ctx.addIssue({ code: "custom", path: ["from"], message });
  });
}

export interface StatementQuery {
  accounts: string[];
  from: string;
  to: string;
}

export type StatementQueryCheck =
  | { ok: true; query: StatementQuery }
  | { ok: false; fields: { field: "account" | "from" | "to"; message: string }[] };

/**
 * Checks a query (`account` may repeat; `from`/`to` ignored for camt.052, which reports `today`):
 * the query, or one message per field that is wrong.
 */
export function checkStatementQuery(
  format: StatementFormat,
  raw: { account?: readonly string[]; from?: string | null; to?: string | null },
  today: string,
  customerAccounts?: readonly string[],
): StatementQueryCheck {
  const accounts = (raw.account ?? [])
    .flatMap((a) => a.split(","))
    .map((a) => a.trim())
    .filter((a) => a !== "");
  const input = {
    account: accounts.length ? [...new Set(accounts)] : undefined,
    from: raw.from ?? undefined,
    to: raw.to ?? undefined,
  };
  const r = statementQuerySchema(format, customerAccounts).safeParse(input);
  if (!r.success) {
    const fields = r.error.issues.map((i) => ({
      field: String(i.path[0] ?? "account") as "account" | "from" | "to",
      message: i.message,
    }));
    // One message a field: the first.
    return { ok: false, fields: fields.filter((f, k) => fields.findIndex((g) => g.field === f.field) === k) };
  }
  const d = r.data as { account: string[]; from?: string; to?: string };
  return format === "camt052"
    ? { ok: true, query: { accounts: d.account, from: today, to: today } }
    : { ok: true, query: { accounts: d.account, from: d.from as string, to: d.to as string } };
}

/** The Statements form's ranges. */
export type StatementPreset = "previous-business-day" | "last-week" | "last-month" | "custom";

/**
 * The preset's days, from the bank's today. The previous business day is what a prior-day file
 * reports: on a Monday, Friday (or Thursday when Friday is a Fed holiday), never an empty Sunday.
 */
export function statementRange(preset: StatementPreset, today: string): { from: string; to: string } {
  const yesterday = addDays(today, -1);
  if (preset === "previous-business-day") {
    const day = addBusinessDays(today, -1);
    return { from: day, to: day };
  }
  if (preset === "last-week") return { from: addDays(today, -7), to: yesterday };
  // The calendar month before this one.
  const firstOfThis = `${today.slice(0, 7)}-01`;
  const lastOfPrevious = addDays(firstOfThis, -1);
  return { from: `${lastOfPrevious.slice(0, 7)}-01`, to: lastOfPrevious };
}
