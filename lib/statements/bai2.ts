// BAI2 (version 2) prior-day reporting: one group per business day, one account set per account,
// written group by group so a long range never sits in memory. Amounts in cents, no decimal point.
import { entryCodes } from "./codes.ts";
import type { AccountDay, StatementEntry } from "./source.ts";

/** Physical lines stay within this many characters; longer records continue on 88 records. */
export const BAI2_LINE_LENGTH = 80;

export interface Bai2Header {
  /** Sender identification (the bank's routing number). */
  sender: string;
  /** Receiver identification (the customer). */
  receiver: string;
  createdAt: Date;
  /** Unique per file on its creation date. */
  fileId: string;
  timeZone: string;
}

/** Already a field as it stands: printable ASCII without spaces or delimiters (references, ids). */
const PLAIN_FIELD = /^[\x21-\x2B\x2D\x2E\x30-\x7E]*$/;

/** Text a field may hold: printable ASCII without the delimiters. */
function field(s: string): string {
  if (PLAIN_FIELD.test(s)) return s;
  return s
    .replace(/[^\x20-\x7E]/g, " ")
    .replace(/[,/]/g, " ")
    .trim();
}

/** Already free text as it stands: printable words one space apart, no slash at either end. */
const PLAIN_TEXT = /^(?!\/)[\x21-\x7E]+(?: [\x21-\x7E]+)*(?<!\/)$/;

/** Free text of a 16 record: printable ASCII, one space between words, never starting or ending with a slash. */
function freeText(s: string): string {
  if (PLAIN_TEXT.test(s)) return s;
  return s
    .replace(/[^\x20-\x7E]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\/+|\/+$/g, "")
    .trim();
}

/** A status amount may be negative; summary and detail amounts never are. */
const amount = (cents: number | bigint) => (cents < 0 ? `-${-cents}` : String(cents));

/** YYMMDD and HHMM in the bank's time zone. */
function dateTimeParts(at: Date, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "2-digit",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}${parts.month}${parts.day}`, time: `${parts.hour}${parts.minute}` };
}

const yymmdd = (day: string) => day.slice(2).replaceAll("-", "");

/**
 * A record of comma-separated items packed into lines of at most BAI2_LINE_LENGTH characters,
 * each ending with "/", every line after the first an 88 continuation; an item is never split.
 */
function packed(head: string[], items: string[][]): string[] {
  const lines: string[] = [];
  let line = head.join(",");
  let itemsOnLine = 0;
  for (const item of items) {
    const text = item.join(",");
    if (itemsOnLine > 0 && line.length + 1 + text.length + 1 > BAI2_LINE_LENGTH) {
      lines.push(`${line}/`);
      line = `88,${text}`;
    } else {
      line = `${line},${text}`;
    }
    itemsOnLine++;
  }
  lines.push(`${line}/`);
  return lines;
}

/**
 * A 16 record, appended to `out` line by line: its text (the last field) runs on in 88 records at
 * word boundaries and ends without "/". Returns the text and its number of physical lines. Built
 * by concatenation, without arrays of words or lines: a day holds thousands of these records, and
 * what each one allocates is what the export's memory grows by.
 */
function appendDetail(out: string, e: StatementEntry): { out: string; lines: number } {
  const codes = entryCodes(e.tranCode, e.direction);
  const head = `16,${codes.bai},${e.amountCents},0,${field(e.bankRef)},${field(e.customerRef ?? "")},`;
  const name = e.counterpartyName;
  const parts = e.descriptions.slice();
  if (name && !e.descriptions.some((d) => d.includes(name))) parts.push(name);
  if (e.memo && !e.descriptions.includes(e.memo)) parts.push(e.memo);
  let line = head;
  let wordsOnLine = 0;
  let lines = 0;
  for (const part of parts) {
    const text = freeText(part);
    for (let i = 0; i < text.length; ) {
      let j = text.indexOf(" ", i);
      if (j < 0) j = text.length;
      const w = text.slice(i, j);
      i = j + 1;
      if (wordsOnLine > 0 && line.length + 1 + w.length > BAI2_LINE_LENGTH) {
        out += `${line}\n`;
        lines++;
        line = `88,${w}`;
        wordsOnLine = 1;
      } else {
        line = wordsOnLine > 0 ? `${line} ${w}` : line + w;
        wordsOnLine++;
      }
    }
  }
  return { out: `${out}${line}${wordsOnLine ? "" : "/"}\n`, lines: lines + 1 };
}

/** Writes a BAI2 file in pieces: the header, one group per day, the trailer (control totals kept between). */
export class Bai2Writer {
  // Control totals add thousands of balances: exact in bigint whatever their size.
  private fileTotal = 0n;
  private fileRecords = 0;
  private groups = 0;

  constructor(private readonly h: Bai2Header) {}

  header(): string {
    const { date, time } = dateTimeParts(this.h.createdAt, this.h.timeZone);
    this.fileRecords++;
    return `01,${field(this.h.sender)},${field(this.h.receiver)},${date},${time},${field(this.h.fileId)},,,2/\n`;
  }

  /**
   * One group: the business day's account sets, as-of modifier 2 (final previous day), in pieces
   * of one batch of entries each: a day of thousands of entries is never one string.
   */
  async *group(day: string, accounts: AccountDay[]): AsyncGenerator<string> {
    let out = `02,${field(this.h.receiver)},${field(this.h.sender)},1,${yymmdd(day)},2400,USD,2/\n`;
    let records = 1;
    let groupTotal = 0n;
    for (const a of accounts) {
      const summary = packed(
        ["03", field(a.accountNumber), "USD"],
        [
          ["010", amount(a.openingLedgerCents), "", ""],
          ["015", amount(a.closingLedgerCents), "", ""],
          ["040", amount(a.openingAvailableCents), "", ""],
          ["045", amount(a.closingAvailableCents), "", ""],
          ["100", amount(a.credits.cents), String(a.credits.count), ""],
          ["400", amount(a.debits.cents), String(a.debits.count), ""],
        ],
      );
      out += `${summary.join("\n")}\n`;
      let accountRecords = summary.length;
      let total =
        BigInt(a.openingLedgerCents) +
        BigInt(a.closingLedgerCents) +
        BigInt(a.openingAvailableCents) +
        BigInt(a.closingAvailableCents) +
        BigInt(a.credits.cents) +
        BigInt(a.debits.cents);
      for await (const batch of a.entries) {
        let cents = 0;
        for (const e of batch) {
          const d = appendDetail(out, e);
          out = d.out;
          accountRecords += d.lines;
          cents += e.amountCents;
        }
        total += BigInt(cents);
        yield out;
        out = "";
      }
      // The 49 record counts every record of the account set, itself included.
      out += `49,${amount(total)},${accountRecords + 1}/\n`;
      records += accountRecords + 1;
      groupTotal += total;
    }
    out += `98,${amount(groupTotal)},${accounts.length},${records + 1}/\n`;
    this.fileTotal += groupTotal;
    this.fileRecords += records + 1;
    this.groups++;
    yield out;
  }

  trailer(): string {
    return `99,${amount(this.fileTotal)},${this.groups},${this.fileRecords + 1}/\n`;
  }
}
