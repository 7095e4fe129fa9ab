// The bank's history as statements read it: every account-day of a range with its entries and its
// ledger and available balances, past days computed back from the bank's current balances.

import { createWriteStream, mkdtempSync, type WriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import { addDays, businessDayFormatter } from "../bank-api/dates.ts";
import type { Transaction } from "../bank-api/history.ts";
import { dollarsToCents } from "../bank-api/money.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, unwrap } from "../bank-client/errors.ts";
import { daysFrom, readAccountHistory } from "../history/read.ts";

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
  /** The day's entries in booking order, a batch at a time (read from disk as they are written out). */
  entries: AsyncIterable<StatementEntry[]>;
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
 * An entry as one line of a spill file: its fields in a JSON array, without the day and position
 * (the file is the day's, the line its position). A day of 5,000 entries is 1.8 MB of such lines.
 */
function entryLine(e: StatementEntry): string {
  return `${JSON.stringify([
    e.amountCents,
    e.direction === "debit" ? 1 : 0,
    e.tranCode,
    e.bankRef,
    e.customerRef,
    e.uniqueId,
    e.paymentId,
    e.descriptions,
    e.counterpartyAccount,
    e.counterpartyName,
    e.memo,
    e.memoPosted ? 1 : 0,
    e.availableAfterCents,
  ])}\n`;
}

function entryOfLine(line: string, day: string, seq: number): StatementEntry {
  const f = JSON.parse(line);
  return {
    seq,
    day,
    amountCents: f[0],
    direction: f[1] ? "debit" : "credit",
    tranCode: f[2],
    bankRef: f[3],
    customerRef: f[4],
    uniqueId: f[5],
    paymentId: f[6],
    descriptions: f[7],
    counterpartyAccount: f[8],
    counterpartyName: f[9],
    memo: f[10],
    memoPosted: f[11] === 1,
    availableAfterCents: f[12],
  };
}

/** Text gathered before it is handed to the file: below V8's large-object size, so it never skips the young generation. */
const SPILL_WRITE = 32 * 1024;
/** Bytes read from a spill file at once. */
const SPILL_READ = 64 * 1024;

/** One account-day's entries on their way to disk, each written as it arrives from the bank. */
export class SpillWriter {
  private pending = "";
  private error: Error | null = null;
  private readonly stream: WriteStream;

  constructor(readonly file: string) {
    this.stream = createWriteStream(file);
    // Kept for `close`, which reports it: a stream's error without a listener would end the process.
    this.stream.on("error", (e) => {
      this.error ??= e;
    });
  }

  add(e: StatementEntry): void {
    this.pending += entryLine(e);
    if (this.pending.length >= SPILL_WRITE) {
      this.stream.write(this.pending);
      this.pending = "";
    }
  }

  /** Writes what is left and closes the file; rejects if any write failed. */
  async close(): Promise<string> {
    if (this.pending) this.stream.write(this.pending);
    this.pending = "";
    this.stream.end();
    await finished(this.stream);
    if (this.error) throw this.error;
    return this.file;
  }

  destroy(): void {
    this.stream.destroy();
  }
}

/**
 * Where the entries of large days wait between the reading and the writing: one file per
 * account-day, one line per entry, in a directory of this statement's own, removed when the file
 * is written, abandoned or fails. The bank is read once per day; this machine's disk holds the
 * rest, and memory holds no more than a batch of any day.
 */
export class SpillDir {
  private dir: string | null = null;
  private n = 0;
  private readonly open = new Set<SpillWriter>();

  writer(): SpillWriter {
    // Made on the first entry of the first large day, from inside the reading of the bank's answer.
    this.dir ??= mkdtempSync(path.join(os.tmpdir(), "statement-"));
    const w = new SpillWriter(path.join(this.dir, `${++this.n}.jsonl`));
    this.open.add(w);
    return w;
  }

  async close(w: SpillWriter): Promise<string> {
    this.open.delete(w);
    return w.close();
  }

  /** The day's entries from its file, a batch at a time in booking order; the file is removed once read. */
  async *read(file: string, day: string): AsyncGenerator<StatementEntry[]> {
    const fh = await fs.open(file, "r");
    try {
      const buf = Buffer.allocUnsafe(SPILL_READ);
      const decoder = new StringDecoder("utf8");
      let rest = "";
      let seq = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, SPILL_READ, null);
        if (!bytesRead) break;
        const lines = (rest + decoder.write(buf.subarray(0, bytesRead))).split("\n");
        rest = lines.pop() ?? "";
        const batch = new Array<StatementEntry>(lines.length);
        for (let i = 0; i < lines.length; i++) batch[i] = entryOfLine(lines[i], day, ++seq);
        yield batch;
      }
      rest += decoder.end();
      if (rest) yield [entryOfLine(rest, day, ++seq)];
    } finally {
      await fh.close();
      await fs.rm(file, { force: true });
    }
  }

  async dispose(): Promise<void> {
    for (const w of this.open) w.destroy();
    this.open.clear();
    const dir = this.dir;
    this.dir = null;
    if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** A day's count and net, and its credits and debits apart. */
interface DayTotals {
  count: number;
  net: number;
  credits: { count: number; cents: number };
  debits: { count: number; cents: number };
}

const noTotals = (): DayTotals => ({
  count: 0,
  net: 0,
  credits: { count: 0, cents: 0 },
  debits: { count: 0, cents: 0 },
});

function addTo(t: DayTotals, e: StatementEntry): void {
  t.count++;
  if (e.direction === "debit") {
    t.net -= e.amountCents;
    t.debits.count++;
    t.debits.cents += e.amountCents;
  } else {
    t.net += e.amountCents;
    t.credits.count++;
    t.credits.cents += e.amountCents;
  }
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
 * lib/bank-client/bank-time.ts), the balances now, and every day from `from` through today read
 * once, while no entry was booked (the balance is the same before and after): each day's totals,
 * and the entries of the days the file reports: in memory when the whole range came in one
 * answer (at most 520 entries), else written to disk as they arrive.
 */
export interface AccountPlan {
  accountNumber: string;
  /** The first day read: balances chain from it. */
  from: string;
  today: string;
  balance: BalanceNow;
  totals: Map<string, DayTotals>;
  /** Entries of reported days kept in memory (a range the bank answered in one call). */
  kept: Map<string, StatementEntry[]>;
  /** Entries of reported days waiting on disk (SpillDir files), by day. */
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
  const totalsOf = (day: string) => {
    let t = plan.totals.get(day);
    if (!t) {
      t = noTotals();
      plan.totals.set(day, t);
    }
    return t;
  };
  // Days read one by one: each entry counted and, on a day the file reports, written to the day's
  // file as it arrives; the day's file is closed when its answer has been read whole.
  const writers = new Map<string, SpillWriter>();
  const entry = (t: Transaction, day: string, k: number): void => {
    const e = toStatementEntry(t, day, k + 1);
    addTo(totalsOf(day), e);
    // Days after the file's last one count toward the balances only.
    if (day > o.to) return;
    let w = writers.get(day);
    if (!w) {
      w = o.spill.writer();
      writers.set(day, w);
    }
    w.add(e);
  };
  try {
    // Without an end date the bank reads through its own today, whatever the dashboard's clock says.
    const read = await readAccountHistory<void, void>(
      bank,
      { accountNumber, from: o.from, today: o.today, order: "D", dayOrder: "A" },
      async (d) => {
        if (d.capped)
          throw new BankCallError({
            kind: "rejected",
            message: `Account ${accountNumber} holds more entries on ${d.day} than the bank's history returns for one day (5,000): the statement would be incomplete.`,
          });
        totalsOf(d.day);
        const w = writers.get(d.day);
        if (!w) return;
        writers.delete(d.day);
        plan.spilled.set(d.day, await o.spill.close(w));
      },
      { entry },
    );
    if (read.kind === "range") {
      const byDay = new Map<string, Transaction[]>();
      for (const t of [...read.txs].reverse()) {
        const list = byDay.get(t.TRANDATE) ?? [];
        list.push(t);
        byDay.set(t.TRANDATE, list);
      }
      for (const [day, txs] of byDay) {
        const entries = txs.map((t, k) => toStatementEntry(t, day, k + 1));
        const totals = totalsOf(day);
        for (const e of entries) addTo(totals, e);
        if (day <= o.to) plan.kept.set(day, entries);
      }
    }
  } finally {
    // A day whose reading failed: its file goes with the statement's directory.
    for (const w of writers.values()) w.destroy();
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
 * day's entries from memory or from its file on disk as they are written out: the bank is not
 * read again.
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
  const entriesOf = (day: string): AsyncIterable<StatementEntry[]> => {
    const file = plan.spilled.get(day);
    if (file) {
      plan.spilled.delete(day);
      return plan.spill.read(file, day);
    }
    const kept = plan.kept.get(day) ?? [];
    plan.kept.delete(day);
    return (async function* () {
      if (kept.length) yield kept;
    })();
  };
  for (const day of days) {
    const totals = plan.totals.get(day) ?? noTotals();
    const openingLedger = closingLedger;
    closingLedger = openingLedger + totals.net;
    const openingAvailable = available;
    available = day === plan.today ? plan.balance.availableCents : closingLedger - heldAt(day);
    if (day < from) continue;
    yield {
      accountNumber: plan.accountNumber,
      day,
      openingLedgerCents: openingLedger,
      closingLedgerCents: closingLedger,
      openingAvailableCents: openingAvailable,
      closingAvailableCents: available,
      credits: totals.credits,
      debits: totals.debits,
      entries: entriesOf(day),
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
