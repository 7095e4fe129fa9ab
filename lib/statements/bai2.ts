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

/** Text a field may hold: printable ASCII without the delimiters. */
function field(s: string): string {
  return s
    .replace(/[^\x20-\x7E]/g, " ")
    .replace(/[,/]/g, " ")
    .trim();
}

/** Free text of a 16 record: printable ASCII, one space between words, never starting or ending with a slash. */
function freeText(s: string): string {
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

/** A 16 record: its text (the last field) runs on in 88 records and ends without "/". */
function detailLines(e: StatementEntry): string[] {
  const codes = entryCodes(e.tranCode, e.direction);
  const head = `16,${codes.bai},${e.amountCents},0,${field(e.bankRef)},${field(e.customerRef ?? "")},`;
  const words = [
    ...e.descriptions,
    e.counterpartyName && !e.descriptions.some((d) => d.includes(e.counterpartyName as string))
      ? e.counterpartyName
      : "",
    e.memo && !e.descriptions.includes(e.memo) ? e.memo : "",
  ]
    .map(freeText)
    .filter((w) => w !== "")
    .join(" ")
    .split(" ")
    .filter((w) => w !== "");
  if (!words.length) return [`${head}/`];
  const lines: string[] = [];
  let line = head;
  let wordsOnLine = 0;
  for (const w of words) {
    const sep = wordsOnLine > 0 ? " " : "";
    if (wordsOnLine > 0 && line.length + sep.length + w.length > BAI2_LINE_LENGTH) {
      lines.push(line);
      line = `88,${w}`;
      wordsOnLine = 1;
    } else {
      line += sep + w;
      wordsOnLine++;
    }
  }
  lines.push(line);
  return lines;
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

  /** One group: the business day's account sets, as-of modifier 2 (final previous day). */
  group(day: string, accounts: AccountDay[]): string {
    const out: string[] = [
      `02,${field(this.h.receiver)},${field(this.h.sender)},1,${yymmdd(day)},2400,USD,2/`,
    ];
    let groupTotal = 0n;
    for (const a of accounts) {
      const account: string[] = packed(
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
      let total =
        BigInt(a.openingLedgerCents) +
        BigInt(a.closingLedgerCents) +
        BigInt(a.openingAvailableCents) +
        BigInt(a.closingAvailableCents) +
        BigInt(a.credits.cents) +
        BigInt(a.debits.cents);
      for (const e of a.entries) {
        account.push(...detailLines(e));
        total += BigInt(e.amountCents);
      }
      // The 49 record counts every record of the account set, itself included.
      account.push(`49,${amount(total)},${account.length + 1}/`);
      out.push(...account);
      groupTotal += total;
    }
    out.push(`98,${amount(groupTotal)},${accounts.length},${out.length + 1}/`);
    this.fileTotal += groupTotal;
    this.fileRecords += out.length;
    this.groups++;
    return `${out.join("\n")}\n`;
  }

  trailer(): string {
    return `99,${amount(this.fileTotal)},${this.groups},${this.fileRecords + 1}/\n`;
  }
}
