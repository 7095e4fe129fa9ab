// ISO 20022 camt.053.001.08 (end of day: one Stmt per account per day) and camt.052.001.08
// (intraday: one Rpt per account, held wires as PDNG), written statement by statement.
import { centsToDecimal } from "../bank-api/money.ts";
import { entryCodes, STATEMENT_BANK } from "./codes.ts";
import type { AccountDay, PendingEntry, StatementEntry } from "./source.ts";

export type CamtKind = "camt.053" | "camt.052";

export const CAMT_NAMESPACE: Record<CamtKind, string> = {
  "camt.053": "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08",
  "camt.052": "urn:iso:std:iso:20022:tech:xsd:camt.052.001.08",
};

const ROOT: Record<CamtKind, { message: string; item: string }> = {
  "camt.053": { message: "BkToCstmrStmt", item: "Stmt" },
  "camt.052": { message: "BkToCstmrAcctRpt", item: "Rpt" },
};

/**
 * Text that is already XML character data as `text` would make it: words of characters that need
 * no escaping and no removal, one space apart. Most references and descriptions are, and a
 * camt.053 of 450,000 entries calls `text` millions of times.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 forbids
const PLAIN_TEXT = /^(?:[^\s\u0000-\u001F\uFFFE\uFFFF&<>"]+(?: [^\s\u0000-\u001F\uFFFE\uFFFF&<>"]+)*)?$/;

/** Text as XML character data, cut to the element's maximum length; characters XML 1.0 forbids dropped. */
function text(s: string, max: number): string {
  // A string's characters are never more than its UTF-16 length.
  if (s.length <= max && PLAIN_TEXT.test(s)) return s;
  const clean = s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 forbids
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const cut = clean.length <= max ? clean : [...clean].slice(0, max).join("").trim();
  return cut.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const el = (name: string, body: string) => `<${name}>${body}</${name}>`;
const amt = (cents: number) => `<Amt Ccy="USD">${centsToDecimal(Math.abs(cents))}</Amt>`;
const cdtDbt = (credit: boolean) => el("CdtDbtInd", credit ? "CRDT" : "DBIT");

function servicer(): string {
  return el(
    "Svcr",
    el(
      "FinInstnId",
      el("ClrSysMmbId", el("ClrSysId", el("Cd", "USABA")) + el("MmbId", STATEMENT_BANK.aba)) +
        el("Nm", STATEMENT_BANK.name) +
        el("Othr", el("Id", STATEMENT_BANK.aba)),
    ),
  );
}

function account(accountNumber: string, name: string | undefined): string {
  return el(
    "Acct",
    el("Id", el("Othr", el("Id", text(accountNumber, 34)))) +
      el("Ccy", "USD") +
      (name ? el("Nm", text(name, 70)) : "") +
      servicer(),
  );
}

function balance(code: string, cents: number, day: string): string {
  return el(
    "Bal",
    el("Tp", el("CdOrPrtry", el("Cd", code))) + amt(cents) + cdtDbt(cents >= 0) + el("Dt", el("Dt", day)),
  );
}

function bankTxCode(tranCode: string, direction: "credit" | "debit"): string {
  const c = entryCodes(tranCode, direction);
  return el(
    "BkTxCd",
    el("Domn", el("Cd", c.domain) + el("Fmly", el("Cd", c.family) + el("SubFmlyCd", c.subFamily))) +
      el("Prtry", el("Cd", text(tranCode, 35)) + el("Issr", text(STATEMENT_BANK.name, 35))),
  );
}

function parties(credit: boolean, name: string | null, acct: string | null): string {
  if (!name && !acct) return "";
  // On a credit the other side paid (the debtor); on a debit it was paid (the creditor).
  const party = name ? el(credit ? "Dbtr" : "Cdtr", el("Pty", el("Nm", text(name, 140)))) : "";
  const partyAcct = acct
    ? el(credit ? "DbtrAcct" : "CdtrAcct", el("Id", el("Othr", el("Id", text(acct, 34)))))
    : "";
  return el("RltdPties", party + partyAcct);
}

function bookedEntry(e: StatementEntry): string {
  const credit = e.direction === "credit";
  const refs =
    el("AcctSvcrRef", text(e.bankRef, 35)) +
    (e.customerRef ? el("EndToEndId", text(e.customerRef.replaceAll("-", ""), 35)) : "") +
    (e.paymentId ? el("TxId", text(e.paymentId, 35)) : "");
  const info = e.descriptions.join(" ");
  const details = el(
    "NtryDtls",
    el(
      "TxDtls",
      el("Refs", refs) +
        amt(e.amountCents) +
        cdtDbt(credit) +
        parties(credit, e.counterpartyName, e.counterpartyAccount) +
        (e.memo ? el("RmtInf", el("Ustrd", text(e.memo, 140))) : "") +
        (info ? el("AddtlTxInf", text(info, 500)) : ""),
    ),
  );
  return el(
    "Ntry",
    el("NtryRef", text(e.bankRef, 35)) +
      amt(e.amountCents) +
      cdtDbt(credit) +
      el("Sts", el("Cd", "BOOK")) +
      el("BookgDt", el("Dt", e.day)) +
      el("ValDt", el("Dt", e.day)) +
      el("AcctSvcrRef", text(e.bankRef, 35)) +
      bankTxCode(e.tranCode, e.direction) +
      details +
      (info ? el("AddtlNtryInf", text(info, 500)) : ""),
  );
}

function pendingEntry(p: PendingEntry): string {
  return el(
    "Ntry",
    el("NtryRef", text(p.paymentId, 35)) +
      amt(p.amountCents) +
      cdtDbt(false) +
      el("Sts", el("Cd", "PDNG")) +
      el("ValDt", el("Dt", p.date)) +
      el("AcctSvcrRef", text(p.paymentId, 35)) +
      bankTxCode("9095", "debit") +
      el(
        "NtryDtls",
        el(
          "TxDtls",
          el("Refs", el("AcctSvcrRef", text(p.paymentId, 35)) + el("TxId", text(p.paymentId, 35))) +
            amt(p.amountCents) +
            cdtDbt(false) +
            parties(false, p.counterpartyName || null, p.counterpartyAccount || null),
        ),
      ) +
      el("AddtlNtryInf", text(`Outgoing wire ${p.paymentId} in progress: funds held`, 500)),
  );
}

function summary(a: AccountDay): string {
  const net = a.credits.cents - a.debits.cents;
  return el(
    "TxsSummry",
    el(
      "TtlNtries",
      el("NbOfNtries", String(a.credits.count + a.debits.count)) +
        el("Sum", centsToDecimal(a.credits.cents + a.debits.cents)) +
        el("TtlNetNtry", el("Amt", centsToDecimal(Math.abs(net))) + cdtDbt(net >= 0)),
    ) +
      el(
        "TtlCdtNtries",
        el("NbOfNtries", String(a.credits.count)) + el("Sum", centsToDecimal(a.credits.cents)),
      ) +
      el(
        "TtlDbtNtries",
        el("NbOfNtries", String(a.debits.count)) + el("Sum", centsToDecimal(a.debits.cents)),
      ),
  );
}

/**
 * Entries are written out once their text reaches this length: a piece stays below V8's
 * large-object size (128 KB; a larger string is born in the old generation and stays until a full
 * collection), one entry being at most some 5 KB.
 */
const PIECE_LENGTH = 96 * 1024;

export interface CamtHeader {
  messageId: string;
  createdAt: Date;
}

/** Writes a camt message in pieces: the header, one statement (or report) at a time, the trailer. */
export class CamtWriter {
  constructor(
    private readonly kind: CamtKind,
    private readonly h: CamtHeader,
  ) {}

  header(): string {
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${CAMT_NAMESPACE[this.kind]}">` +
      `<${ROOT[this.kind].message}>` +
      el("GrpHdr", el("MsgId", text(this.h.messageId, 35)) + el("CreDtTm", this.h.createdAt.toISOString())) +
      "\n"
    );
  }

  /**
   * One account-day: opening and closing booked and available balances (camt.052: interim, the
   * day so far), the day's totals, each booked entry, then the pending ones; in pieces below
   * PIECE_LENGTH, so that a day of thousands of entries is never one string.
   */
  async *statementPieces(
    a: AccountDay,
    o: { accountName?: string; pending?: PendingEntry[] } = {},
  ): AsyncGenerator<string> {
    const intraday = this.kind === "camt.052";
    const item = ROOT[this.kind].item;
    const id = `${a.accountNumber}-${a.day.replaceAll("-", "")}${intraday ? "-ID" : ""}`;
    const balances =
      balance("OPBD", a.openingLedgerCents, a.day) +
      balance(intraday ? "ITBD" : "CLBD", a.closingLedgerCents, a.day) +
      balance("OPAV", a.openingAvailableCents, a.day) +
      balance(intraday ? "ITAV" : "CLAV", a.closingAvailableCents, a.day);
    yield `<${item}>${el("Id", text(id, 35))}${el("CreDtTm", this.h.createdAt.toISOString())}${account(
      a.accountNumber,
      o.accountName,
    )}${balances}${summary(a)}`;
    let piece = "";
    for await (const batch of a.entries)
      for (const e of batch) {
        piece += bookedEntry(e);
        if (piece.length >= PIECE_LENGTH) {
          yield piece;
          piece = "";
        }
      }
    if (piece) yield piece;
    yield `${(o.pending ?? []).map(pendingEntry).join("")}</${item}>\n`;
  }

  trailer(): string {
    return `</${ROOT[this.kind].message}></Document>\n`;
  }
}
