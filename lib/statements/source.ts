// The bank's history as statements read it: every account-day of a range with its entries and its
// ledger and available balances, past days computed back from the bank's current balances.

import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { addDays, businessDayFormatter } from "../bank-api/dates.ts";
import type { Transaction } from "../bank-api/history.ts";
import { dollarsToCents } from "../bank-api/money.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, unwrap } from "../bank-client/errors.ts";
import { daysFrom, type HistoryDay, readAccountHistory } from "../history/read.ts";

/** One ledger entry as a statement shows it. */
export interface StatementEntry {
  /** 1-based position of the entry in its account-day, in booking order. */
  seq: number;
  day: string;
  amountCents: number;
  direction: "credit" | "debit";
  tranCode: string;
  /** The bank's reference: the wire's payment id, else the day and position (`YYYYMMDD-000042`). */
  bankRef: string;
  /** The customer's own reference: the Idempotency-Key its request carried. */
  customerRef: string | null;
  uniqueId: string;
  paymentId: string | null;
  descriptions: string[];
  counterpartyAccount: string | null;
  counterpartyName: string | null;
  memo: string | null;
  memoPosted: boolean;
  availableAfterCents: number;
}

/** A held amount not yet booked (an outgoing wire in progress): camt.052 reports it as PDNG. */
export interface PendingEntry {
  paymentId: string;
  amountCents: number;
  counterpartyName: string;
  counterpartyAccount: string;
  date: string;
}

export interface AccountDay {
  accountNumber: string;
  day: string;
  openingLedgerCents: number;
  closingLedgerCents: number;
  openingAvailableCents: number;
  closingAvailableCents: number;
  credits: { count: number; cents: number };
  debits: { count: number; cents: number };
  entries: StatementEntry[];
}

/** Attempts to read balances and history without an entry booked in between. */
const SNAPSHOT_ATTEMPTS = 3;

function cents(value: number, field: string): number {
  const c = dollarsToCents(value);
  if (c === null)
    throw new BankCallError({
      kind: "bank_error",
      message: `The bank sent an amount that is not exact to the cent (${field}).`,
    });
  return c;
}

export function toStatementEntry(t: Transaction, day: string, seq: number): StatementEntry {
  const debit = t.DRCRFLAG.toUpperCase().startsWith("D");
  const descriptions = [
    t.TRANDESC,
    t.TRANDESCS,
    t.TRANDESC3,
    t.TRANDESC4,
    t.TRANDESC5,
    t.TRANDESC6,
    t.TRANDESC7,
    t.TRANDESC8,
    t.TRANDESC9,
    t.TRANDESC10,
    t.TRANDESC11,
  ].filter((d) => d && d.trim() !== "");
  const sen = t.SenTransferResponse;
  const wireName = /^(BENE|ORIG):(.*)$/.exec(t.TRANDESCS ?? "");
  return {
    seq,
    day,
    amountCents: Math.abs(cents(t.TRANAMT, "TRANAMT")),
    direction: debit ? "debit" : "credit",
    tranCode: t.TRANCD,
    bankRef: t.PaymentId || `${day.replaceAll("-", "")}-${String(seq).padStart(6, "0")}`,
    customerRef: t.IDEMPOTENCYKEY || null,
    uniqueId: t.UniqueId,
    paymentId: t.PaymentId || null,
    descriptions,
    counterpartyAccount: sen?.CounterPartyAccountNumber || null,
    counterpartyName: sen?.CounterPartyLegalName || (wireName ? wireName[2].trim() || null : null),
    memo: sen?.SenderMemo || null,
    memoPosted: t.MEMOPSTIND.trim() !== "",
    availableAfterCents: cents(t.CURRAVAILBAL, "CURRAVAILBAL"),
  };
}

/**
 * Where the entries of days that do not fit in memory wait between the reading and the writing:
 * one file per account-day in a directory of this statement's own, removed when the file is
 * written, abandoned or fails. The bank is read once per day; this machine's disk holds the rest.
 */
export class SpillDir {
  private dir: Promise<string> | null = null;
  private n = 0;

  async write(entries: StatementEntry[]): Promise<string> {
    this.dir ??= fs.mkdtemp(path.join(os.tmpdir(), "statement-"));
    const file = path.join(await this.dir, `${++this.n}.json`);
    await fs.writeFile(file, JSON.stringify(entries));
    return file;
  }

  async read(file: string): Promise<StatementEntry[]> {
    const entries = JSON.parse(await fs.readFile(file, "utf8")) as StatementEntry[];
    await fs.rm(file, { force: true });
    return entries;
  }

  async dispose(): Promise<void> {
    const dir = this.dir;
    this.dir = null;
    if (dir) await fs.rm(await dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** A day's entries as read: whole, refused when the bank holds more than its one-day history returns. */
function dayEntries(accountNumber: string, d: HistoryDay<StatementEntry>): StatementEntry[] {
  if (d.capped)
    throw new BankCallError({
      kind: "rejected",
      message: `Account ${accountNumber} holds more entries on ${d.day} than the bank's history returns for one day (5,000): the statement would be incomplete.`,
    });
  return d.txs;
}

interface DayTotals {
  count: number;
  net: number;
}

const netOf = (entries: StatementEntry[]) =>
  entries.reduce((s, e) => s + (e.direction === "debit" ? -e.amountCents : e.amountCents), 0);

interface BalanceNow {
  currentCents: number;
  availableCents: number;
}

async function balanceNow(bank: BankClient, accountNumber: string): Promise<BalanceNow> {
  const r = unwrap(await bank.call("balance", { query: { accountNumber } }));
  const b = r.ResponseData[0];
  if (!b)
    throw new BankCallError({ kind: "rejected", message: "The bank returned no balance for this account." });
  return { currentCents: cents(b.CURRBAL, "CURRBAL"), availableCents: cents(b.AVAILBAL, "AVAILBAL") };
}

/**
 * What a statement of one account needs before its first byte: the bank's today (from its clock,
 * lib/bank-client/bank-time.ts), the balances now, and every day from `from` through today read
 * once, while no entry was booked (the balance is the same before and after): each day's count
 * and net, and the entries of the days the file reports, in memory while they fit, else on disk.
 */
export interface AccountPlan {
  accountNumber: string;
  /** The first day read: balances chain from it. */
  from: string;
  today: string;
  balance: BalanceNow;
  totals: Map<string, DayTotals>;
  /** Entries of reported days kept in memory. */
  kept: Map<string, StatementEntry[]>;
  /** Entries of reported days waiting on disk (SpillDir files). */
  spilled: Map<string, string>;
  spill: SpillDir;
  /** Funds held for outgoing wires: from the business day the hold was placed until the day it ended. */
  holds: Hold[];
}

/** A wire's hold on the available balance, by business day (`end` null while it is still held). */
export interface Hold {
  start: string;
  end: string | null;
  cents: number;
}

/** Entries of the reported days held in memory at most; the rest wait on disk. */
const MEMORY_ENTRIES = 2_000;

/** Reads the account from `from` through today once; entries of the days through `to` are kept. */
export async function planAccount(
  bank: BankClient,
  accountNumber: string,
  o: { from: string; to: string; today: string; spill: SpillDir },
): Promise<AccountPlan> {
  for (let attempt = 1; ; attempt++) {
    const before = await balanceNow(bank, accountNumber);
    const plan = await readSince(bank, accountNumber, o, before);
    const after = await balanceNow(bank, accountNumber);
    if (after.currentCents === before.currentCents && after.availableCents === before.availableCents)
      return plan;
    for (const file of plan.spilled.values()) await fs.rm(file, { force: true });
    if (attempt >= SNAPSHOT_ATTEMPTS)
      throw new BankCallError({
        kind: "unavailable",
        message: `Account ${accountNumber} kept changing while its statement was read. Try again in a moment.`,
        retryAfter: 1,
      });
  }
}

async function readSince(
  bank: BankClient,
  accountNumber: string,
  o: { from: string; to: string; today: string; spill: SpillDir },
  balance: BalanceNow,
): Promise<AccountPlan> {
  const plan: AccountPlan = {
    accountNumber,
    from: o.from,
    today: o.today,
    balance,
    totals: new Map(),
    kept: new Map(),
    spilled: new Map(),
    spill: o.spill,
    holds: [],
  };
  let inMemory = 0;
  const keep = async (day: string, entries: StatementEntry[]) => {
    plan.totals.set(day, { count: entries.length, net: netOf(entries) });
    // Days after the file's last one count toward the balances only.
    if (day > o.to || entries.length === 0) return;
    if (inMemory + entries.length <= MEMORY_ENTRIES) {
      inMemory += entries.length;
      plan.kept.set(day, entries);
    } else plan.spilled.set(day, await o.spill.write(entries));
  };
  // Without an end date the bank reads through its own today, whatever the dashboard's clock says.
  const read = await readAccountHistory<void, StatementEntry>(
    bank,
    { accountNumber, from: o.from, today: o.today, order: "D", dayOrder: "A" },
    (d) => keep(d.day, dayEntries(accountNumber, d)),
    { entry: (t, day, k) => toStatementEntry(t, day, k + 1) },
  );
  if (read.kind === "range") {
    const byDay = new Map<string, Transaction[]>();
    for (const t of [...read.txs].reverse()) {
      const list = byDay.get(t.TRANDATE) ?? [];
      list.push(t);
      byDay.set(t.TRANDATE, list);
    }
    for (const [day, txs] of byDay)
      await keep(
        day,
        txs.map((t, k) => toStatementEntry(t, day, k + 1)),
      );
  }
  return plan;
}

/** The net of every entry booked after `day` through today. */
function netAfter(plan: AccountPlan, day: string): number {
  let s = 0;
  for (const [d, t] of plan.totals) if (d > day) s += t.net;
  return s;
}

/**
 * The account's days from `from` to `to` (at most its today), one at a time and in order, each
 * from memory or from its file on disk (the next one loaded meanwhile): the bank is not read again.
 */
export async function* accountDays(plan: AccountPlan, from: string, to: string): AsyncGenerator<AccountDay> {
  const last = to < plan.today ? to : plan.today;
  // Balances chain from the first day the plan read, even where the file starts later.
  const first = plan.from < from ? plan.from : from;
  const days = first <= last ? daysFrom(first, last) : [];
  let closingLedger = plan.balance.currentCents - netAfter(plan, addDays(first, -1));
  // Available is the ledger balance less the wires held at the close of the day (the bank's rule).
  const heldAt = (day: string) =>
    plan.holds.reduce(
      (sum, h) => (h.start <= day && (h.end === null || h.end > day) ? sum + h.cents : sum),
      0,
    );
  let available = closingLedger - heldAt(addDays(first, -1));
  const load = (day: string): Promise<StatementEntry[]> => {
    const file = plan.spilled.get(day);
    if (file) {
      plan.spilled.delete(day);
      return plan.spill.read(file);
    }
    const kept = plan.kept.get(day) ?? [];
    plan.kept.delete(day);
    return Promise.resolve(kept);
  };
  let next = days.length ? load(days[0]) : null;
  for (let i = 0; i < days.length; i++) {
    const day = days[i];
    const entries = await (next as Promise<StatementEntry[]>);
    next = i + 1 < days.length ? load(days[i + 1]) : null;
    // Holds the read-ahead's failure until it is awaited, so it never goes unhandled.
    next?.catch(() => {});
    const net = plan.totals.get(day)?.net ?? 0;
    const openingLedger = closingLedger;
    closingLedger = openingLedger + net;
    const openingAvailable = available;
    available = day === plan.today ? plan.balance.availableCents : closingLedger - heldAt(day);
    if (day < from) continue;
    const credits = entries.filter((e) => e.direction === "credit");
    const debits = entries.filter((e) => e.direction === "debit");
    yield {
      accountNumber: plan.accountNumber,
      day,
      openingLedgerCents: openingLedger,
      closingLedgerCents: closingLedger,
      openingAvailableCents: openingAvailable,
      closingAvailableCents: available,
      credits: { count: credits.length, cents: credits.reduce((s, e) => s + e.amountCents, 0) },
      debits: { count: debits.length, cents: debits.reduce((s, e) => s + e.amountCents, 0) },
      entries,
    };
  }
}

/** Outgoing wires of the account whose funds are held now (In-Progress): pending entries. */
export async function heldWires(
  bank: BankClient,
  accountNumber: string,
  today: string,
): Promise<PendingEntry[]> {
  const out: PendingEntry[] = [];
  const PAGE = 1000;
  for (let page = 1; ; page++) {
    const batch = unwrap(
      await bank.call("listPayments", {
        query: {
          account_number: accountNumber,
          begin_date: addDays(today, -31),
          end_date: today,
          sort_order: "asc",
          page_size: PAGE,
          page_number: page,
        },
      }),
    );
    for (const p of batch) {
      if (p.direction === "Incoming" || p.payment_status !== "In-Progress") continue;
      // A return wire ("R…") sends back money never credited: it holds nothing.
      if (p.debit_account_id !== accountNumber || p.payment_id.startsWith("R")) continue;
      out.push({
        paymentId: p.payment_id,
        amountCents: cents(p.amount, `${p.payment_id} amount`),
        counterpartyName: p.beneficiary_name,
        counterpartyAccount: p.beneficiary_id,
        date: p.payment_date.slice(0, 10),
      });
    }
    if (batch.length < PAGE) break;
  }
  return out;
}

/**
 * The holds of the account's outgoing wires since `since`: each from the business day it was
 * entered until the day it completed or was cancelled (a return wire holds nothing: it posts nothing).
 */
export async function wireHolds(
  bank: BankClient,
  accountNumber: string,
  since: string,
  today: string,
  timeZone: string,
): Promise<Hold[]> {
  const dayOf = businessDayFormatter(timeZone);
  const out: Hold[] = [];
  const PAGE = 1000;
  // A hold that began up to a window before `since` may still be open on it.
  for (let begin = addDays(since, -31); begin <= today; begin = addDays(begin, 32)) {
    const end = addDays(begin, 31) < today ? addDays(begin, 31) : today;
    for (let page = 1; ; page++) {
      const batch = unwrap(
        await bank.call("listPayments", {
          query: {
            account_number: accountNumber,
            begin_date: begin,
            end_date: end,
            sort_order: "asc",
            page_size: PAGE,
            page_number: page,
          },
        }),
      );
      for (const p of batch) {
        if (p.direction === "Incoming" || p.debit_account_id !== accountNumber) continue;
        if (p.payment_id.startsWith("R") || !p.entry_date) continue;
        if (p.payment_status === "Pre-Approval") continue;
        const ended = p.completion_date || p.cancel_date;
        out.push({
          start: dayOf(new Date(p.entry_date)),
          end: ended ? dayOf(new Date(ended)) : null,
          cents: cents(p.amount, `${p.payment_id} amount`),
        });
      }
      if (batch.length < PAGE) break;
    }
  }
  return out;
}
