// The bank's history as statements read it: every account-day of a range with its entries and its
// ledger and available balances, past days computed back from the bank's current balances.

import { addDays, businessDayFormatter } from "../bank-api/dates.ts";
import type { Transaction } from "../bank-api/history.ts";
import { dollarsToCents } from "../bank-api/money.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, unwrap } from "../bank-client/errors.ts";

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

/** Past days hold at most this many entries in memory between the two readings. */
const CACHE_ENTRIES = 2_000;
const READ_CONCURRENCY = 4;
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

/** The signed effect of a history item on the ledger balance. */
function signed(t: Transaction): number {
  const c = Math.abs(cents(t.TRANAMT, "TRANAMT"));
  return t.DRCRFLAG.toUpperCase().startsWith("D") ? -c : c;
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

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Every day from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** One whole business day of an account, oldest first; a day over the bank's 5,000 is refused, never cut. */
export async function readDay(bank: BankClient, accountNumber: string, day: string): Promise<Transaction[]> {
  const r = unwrap(
    await bank.call("extendedHistory", { query: { accountNumber, date: day, displayOrder: "A" } }),
  );
  if (r.ResponseData.some((d) => d.MOREDATA.toUpperCase() === "Y"))
    throw new BankCallError({
      kind: "rejected",
      message: `Account ${accountNumber} holds more entries on ${day} than the bank's history returns for one day (5,000): the statement would be incomplete.`,
    });
  return r.ResponseData.flatMap((d) => d.TRANSACTION);
}

interface DayTotals {
  count: number;
  net: number;
}

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
 * lib/bank-client/bank-time.ts), the balances now, and each day's count and net from `from`
 * through today, read while no entry was booked (the balance is the same before and after). Days
 * whose entries fit the cache are kept for the writing pass.
 */
export interface AccountPlan {
  accountNumber: string;
  /** The first day read: balances chain from it. */
  from: string;
  today: string;
  balance: BalanceNow;
  totals: Map<string, DayTotals>;
  cache: Map<string, Transaction[]>;
  /** Funds held for outgoing wires: from the business day the hold was placed until the day it ended. */
  holds: Hold[];
}

/** A wire's hold on the available balance, by business day (`end` null while it is still held). */
export interface Hold {
  start: string;
  end: string | null;
  cents: number;
}

export async function planAccount(
  bank: BankClient,
  accountNumber: string,
  from: string,
  today: string,
): Promise<AccountPlan> {
  for (let attempt = 1; ; attempt++) {
    const before = await balanceNow(bank, accountNumber);
    const plan = await readSince(bank, accountNumber, from, today, before);
    const after = await balanceNow(bank, accountNumber);
    if (after.currentCents === before.currentCents && after.availableCents === before.availableCents)
      return plan;
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
  from: string,
  today: string,
  balance: BalanceNow,
): Promise<AccountPlan> {
  // Without an end date the bank reads through its own today: nothing booked since `today` began
  // is missed even where the bank's midnight passes meanwhile (the snapshot check then retries).
  const newestFirst = unwrap(
    await bank.call("history", { query: { accountNumber, beginDate: from, displayOrder: "D" } }),
  );
  const items = newestFirst.ResponseData.flatMap((d) => d.TRANSACTION);
  const more = newestFirst.ResponseData.some((d) => d.MOREDATA.toUpperCase() === "Y");
  const totals = new Map<string, DayTotals>();
  const cache = new Map<string, Transaction[]>();
  if (!more) {
    for (const t of [...items].reverse()) {
      const list = cache.get(t.TRANDATE) ?? [];
      list.push(t);
      cache.set(t.TRANDATE, list);
    }
  } else {
    let kept = 0;
    // Through the newest booking where the bank's midnight passed since `today` was read: every
    // entry the balance holds is counted, whatever day it fell on.
    const newest = items[0]?.TRANDATE;
    const last = newest && newest > today ? newest : today;
    const days = from <= last ? daysFrom(from, last) : [];
    const read = await mapLimit(days, READ_CONCURRENCY, async (day) => {
      const txs = await readDay(bank, accountNumber, day);
      const t: DayTotals = { count: txs.length, net: txs.reduce((s, x) => s + signed(x), 0) };
      // Only the days the cache holds stay in memory until the writing pass.
      const keep = kept + txs.length <= CACHE_ENTRIES;
      if (keep) kept += txs.length;
      return { day, totals: t, txs: keep ? txs : null };
    });
    for (const r of read) {
      totals.set(r.day, r.totals);
      if (r.txs) cache.set(r.day, r.txs);
    }
  }
  for (const [day, txs] of cache) {
    if (!totals.has(day)) totals.set(day, { count: txs.length, net: txs.reduce((s, x) => s + signed(x), 0) });
  }
  return { accountNumber, from, today, balance, totals, cache, holds: [] };
}

/** The net of every entry booked after `day` through today. */
function netAfter(plan: AccountPlan, day: string): number {
  let s = 0;
  for (const [d, t] of plan.totals) if (d > day) s += t.net;
  return s;
}

/**
 * The account's days from `from` to `to` (at most its today), one at a time and in order, each
 * read as it is written (the next one read meanwhile), so a long range never sits in memory.
 */
export async function* accountDays(
  bank: BankClient,
  plan: AccountPlan,
  from: string,
  to: string,
): AsyncGenerator<AccountDay> {
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
  const load = (day: string) => {
    const cached = plan.cache.get(day);
    return cached ? Promise.resolve(cached) : readDay(bank, plan.accountNumber, day);
  };
  let next = days.length ? load(days[0]) : null;
  for (let i = 0; i < days.length; i++) {
    const day = days[i];
    const txs = await (next as Promise<Transaction[]>);
    next = i + 1 < days.length ? load(days[i + 1]) : null;
    // Holds the read-ahead's failure until it is awaited, so it never goes unhandled.
    next?.catch(() => {});
    const expected = plan.totals.get(day) ?? { count: 0, net: 0 };
    const net = txs.reduce((s, x) => s + signed(x), 0);
    if (txs.length !== expected.count || net !== expected.net)
      throw new BankCallError({
        kind: "unavailable",
        message: `The bank's history of ${plan.accountNumber} on ${day} changed while its statement was written.`,
      });
    const entries = txs.map((t, k) => toStatementEntry(t, day, k + 1));
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
