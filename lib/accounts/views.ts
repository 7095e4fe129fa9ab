// Accounts, balances and history as the dashboard API shapes them (lib/dashboard-api/index.ts),
// read through the bank client. Amounts become integer cents through the contract's exact
// converter; an amount that is not exact to the cent is a contract breach, never rounded.
import "server-only";
import type { BalanceRecord, CustAcct } from "../bank-api/accounts.ts";
import { EXTENDED_HISTORY_MAX_ITEMS, TRANDESC_FIELDS, type Transaction } from "../bank-api/history.ts";
import { type Cents, dollarsToCents } from "../bank-api/money.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, unwrap } from "../bank-client/errors.ts";
import type {
  AccountDetailResponse,
  AccountSummary,
  AccountsResponse,
  HistoryItem,
  HistoryResponse,
} from "../dashboard-api/index.ts";
import { readAccountHistory } from "../history/read.ts";

export function toCents(value: number, field: string): Cents {
  const c = dollarsToCents(value);
  if (c === null)
    throw new BankCallError({
      kind: "bank_error",
      message: `The bank sent an amount that is not exact to the cent (${field}).`,
    });
  return c;
}

const STATUS_WORDS: Record<string, string> = { A: "Active", C: "Closed", D: "Dormant" };

function accountType(a: Pick<CustAcct, "PRODDESC" | "PRODTYPE">): "DDA" | "SEN" {
  return /\bSEN\b/i.test(a.PRODDESC) ? "SEN" : "DDA";
}

export function toAccountSummary(acct: CustAcct, bal: BalanceRecord): AccountSummary {
  const n = acct.ACTNBR;
  return {
    accountNumber: n,
    name: acct.SHORTNAME || bal.SHORTNAME,
    titleLines: [
      acct.LGLTTLLN1,
      acct.LGLTTLLN2,
      acct.LGLTTLLN3,
      acct.LGLTTLLN4,
      acct.LGLTTLLN5,
      acct.LGLTTLLN6,
    ].filter((l) => l.trim() !== ""),
    type: accountType(acct),
    productDescription: acct.PRODDESC,
    status: bal.STATDESC || STATUS_WORDS[acct.ACTSTATUS] || acct.ACTSTATUS,
    availableCents: toCents(bal.AVAILBAL, `${n} AVAILBAL`),
    currentCents: toCents(bal.CURRBAL, `${n} CURRBAL`),
    holdsCents: toCents(bal.TOTALHOLDS, `${n} TOTALHOLDS`),
    lastDepositCents: toCents(bal.LSTDEPAMT, `${n} LSTDEPAMT`),
    lastDepositDate: bal.LSTDEPDT || null,
    openDate: bal.ACTOPNDT,
  };
}

async function balanceOf(bank: BankClient, accountNumber: string): Promise<BalanceRecord> {
  const r = unwrap(await bank.call("balance", { query: { accountNumber } }));
  const rec = r.ResponseData[0];
  if (!rec)
    throw new BankCallError({ kind: "rejected", message: "The bank returned no balance for this account." });
  return rec;
}

async function custAccounts(bank: BankClient): Promise<CustAcct[]> {
  const list = unwrap(await bank.call("accountList"));
  return list.ResponseData.flatMap((d) => d.CUSTACCT);
}

/** The subscription key's accounts by number: their names, for words beside a bare number. */
export async function accountNames(bank: BankClient): Promise<Map<string, string>> {
  const list = await custAccounts(bank);
  return new Map(list.filter((a) => a.SHORTNAME).map((a) => [a.ACTNBR, a.SHORTNAME]));
}

/** The subscription key's account numbers: where a sweep may move money between. */
export async function ownAccountNumbers(bank: BankClient): Promise<Set<string>> {
  return new Set((await custAccounts(bank)).map((a) => a.ACTNBR));
}

/** True when the account is one of the subscription key's (an account page answers 404 otherwise). */
export async function isOwnAccount(bank: BankClient, accountNumber: string): Promise<boolean> {
  return (await custAccounts(bank)).some((a) => a.ACTNBR === accountNumber);
}

/** GET /api/accounts: the account list and one balance per account, read in parallel. */
export async function listAccounts(bank: BankClient, now = new Date()): Promise<AccountsResponse> {
  const accts = await custAccounts(bank);
  const balances = await Promise.all(accts.map((a) => balanceOf(bank, a.ACTNBR)));
  const accounts = accts.map((a, i) => toAccountSummary(a, balances[i]));
  const totals = { availableCents: 0, currentCents: 0, holdsCents: 0 };
  for (const a of accounts) {
    totals.availableCents += a.availableCents;
    totals.currentCents += a.currentCents;
    totals.holdsCents += a.holdsCents;
  }
  return { accounts, totals, asOf: now.toISOString() };
}

/** GET /api/accounts/[accountNumber]: balance record, cash-manager balance and the list entry. */
export async function accountDetail(
  bank: BankClient,
  accountNumber: string,
  now = new Date(),
): Promise<AccountDetailResponse | null> {
  const [accts, balance, cash] = await Promise.all([
    custAccounts(bank),
    balanceOf(bank, accountNumber),
    bank.call("cashManagerBalance", { query: { accountNumber } }),
  ]);
  const acct = accts.find((a) => a.ACTNBR === accountNumber);
  if (!acct) return null;
  const cm = cash.ok ? cash.data.ResponseData : null;
  return {
    account: toAccountSummary(acct, balance),
    balance,
    cashManager: cm
      ? { availableCents: toCents(cm.AvailableBalance, "AvailableBalance"), openDate: cm.OpenDate }
      : null,
    asOf: now.toISOString(),
  };
}

// History ----------------------------------------------------------------------------------

function toHistoryItem(t: Transaction, index: number, dayKey: string): HistoryItem {
  const descriptions = TRANDESC_FIELDS.map((f) => t[f]).filter((d) => d && d.trim() !== "");
  const cents = toCents(t.TRANAMT, "TRANAMT");
  const debit = t.DRCRFLAG.toUpperCase().startsWith("D");
  return {
    id: `${dayKey}:${index}:${t.UniqueId}`,
    uniqueId: t.UniqueId,
    date: t.TRANDATE,
    effectiveDate: t.EFFDATE || t.TRANDATE,
    amountCents: Math.abs(cents),
    direction: debit ? "debit" : "credit",
    code: t.TRANCD,
    description: t.TRANDESC,
    descriptions,
    availableAfterCents: toCents(t.CURRAVAILBAL, "CURRAVAILBAL"),
    paymentId: t.PaymentId || null,
    idempotencyKey: t.IDEMPOTENCYKEY || null,
    memoPosted: t.MEMOPSTIND.trim() !== "",
    sen: t.SenTransferResponse
      ? {
          counterpartyAccount: t.SenTransferResponse.CounterPartyAccountNumber,
          counterpartyName: t.SenTransferResponse.CounterPartyLegalName,
          memo: t.SenTransferResponse.SenderMemo,
          timestamp: t.SenTransferResponse.Timestamp,
        }
      : null,
  };
}

/**
 * GET /api/accounts/[accountNumber]/history: one history call over the range; when the bank
 * says MOREDATA=Y (its 520-item cap) the range is re-read day by day from extendedhistory
 * (lib/history/read.ts, as the statements read it).
 */
export async function readHistory(
  bank: BankClient,
  q: { accountNumber: string; from: string; to: string; order: "A" | "D" },
): Promise<HistoryResponse> {
  const read = await readAccountHistory(bank, q, (d) => d);
  const base = { accountNumber: q.accountNumber, from: q.from, to: q.to, order: q.order };
  if (read.kind === "range") {
    return {
      ...base,
      items: read.txs.map((t, i) => toHistoryItem(t, i, "r")),
      source: "history",
      truncatedDays: [],
    };
  }
  const perDay = read.days;
  const items = perDay.flatMap((d) => d.txs.map((t, i) => toHistoryItem(t, i, d.day)));
  const truncatedDays = perDay.filter((d) => d.capped).map((d) => d.day);
  const notice =
    `This range has more transactions than one history request returns, so they were read day by day.` +
    (truncatedDays.length
      ? ` On ${truncatedDays.join(", ")} the bank returned only its first ${EXTENDED_HISTORY_MAX_ITEMS.toLocaleString("en-US")} transactions; choose a single day or export from the bank for the rest.`
      : "");
  return { ...base, items, source: "extendedhistory", truncatedDays, notice };
}

/** GET /api/accounts/[accountNumber]/balance: the balance alone, one bank call. */
export async function accountBalance(bank: BankClient, accountNumber: string, now = new Date()) {
  const b = await balanceOf(bank, accountNumber);
  return {
    accountNumber,
    availableCents: toCents(b.AVAILBAL, "AVAILBAL"),
    currentCents: toCents(b.CURRBAL, "CURRBAL"),
    holdsCents: toCents(b.TOTALHOLDS, "TOTALHOLDS"),
    asOf: now.toISOString(),
  };
}
