// The payments page's reads: every wire of one account over a range (all of the bank's pages,
// then filtered, sorted and paged here, so filters and page counts agree), the same as CSV, and
// one record in full.
import "server-only";
import type { z } from "zod";
import { toCents } from "../accounts/views.ts";
import { TRANDESC_FIELDS } from "../bank-api/history.ts";
import type { PaymentRecord } from "../bank-api/payments.ts";
import type { BankClient } from "../bank-client/client.ts";
import { unwrap } from "../bank-client/errors.ts";
import {
  ALL_ACCOUNTS,
  type PaymentDetailResponse,
  type PaymentRow,
  type PaymentsQuery,
  type PaymentsResponse,
} from "../dashboard-api/payments.ts";
import type { Queryable } from "../db/client.ts";
import { paymentsToCsv } from "../format/payments-csv.ts";
import { paymentStory } from "./story.ts";

const BANK_PAGE = 10_000;

function toRow(p: PaymentRecord, account: string): PaymentRow {
  const outgoing = p.direction === "Outgoing";
  return {
    account,
    paymentId: p.payment_id,
    status: p.payment_status,
    direction: p.direction,
    date: p.payment_date.slice(0, 10),
    timestamp: p.time_stamp,
    amountCents: toCents(p.amount, `${p.payment_id} amount`),
    counterparty: outgoing ? p.beneficiary_name : p.originator_name,
    counterpartyAccount: outgoing ? p.beneficiary_id : p.originator_id,
  };
}

/** The filters that choose and order payments: the page and page size aside. */
type PaymentsFilter = Omit<z.output<typeof PaymentsQuery>, "page" | "pageSize">;

/** Every wire of one account in the range, all of the bank's pages. */
async function accountPayments(
  bank: BankClient,
  account: string,
  q: PaymentsFilter,
): Promise<PaymentRecord[]> {
  const all: PaymentRecord[] = [];
  for (let page = 1; ; page++) {
    const batch = unwrap(
      await bank.call("listPayments", {
        query: {
          account_number: account,
          begin_date: q.from,
          end_date: q.to,
          sort_order: "desc",
          page_size: BANK_PAGE,
          page_number: page,
        },
      }),
    );
    all.push(...batch);
    if (batch.length < BANK_PAGE) break;
  }
  return all;
}

/** The customer's account numbers, for the list of every account's payments. */
async function accountNumbers(bank: BankClient): Promise<string[]> {
  return unwrap(await bank.call("accountList")).ResponseData.flatMap((d) => d.CUSTACCT.map((a) => a.ACTNBR));
}

/** Every wire of the account, or of every account, in the range that the filters match, in the filters' order. */
async function matchingPayments(
  bank: BankClient,
  q: PaymentsFilter,
): Promise<{ record: PaymentRecord; row: PaymentRow }[]> {
  const accounts = q.account === ALL_ACCOUNTS ? await accountNumbers(bank) : [q.account];
  const lists = await Promise.all(accounts.map((a) => accountPayments(bank, a, q)));
  let rows = lists.flatMap((list, i) => list.map((record) => ({ record, row: toRow(record, accounts[i]) })));
  if (q.direction !== "all")
    rows = rows.filter(({ row }) =>
      q.direction === "outgoing" ? row.direction === "Outgoing" : row.direction !== "Outgoing",
    );
  if (q.status !== "all") rows = rows.filter(({ row }) => row.status === q.status);
  const [key, dir] = q.sort.split("-") as ["date" | "amount", "asc" | "desc"];
  const sign = dir === "asc" ? 1 : -1;
  rows.sort(({ row: a }, { row: b }) => {
    const d =
      key === "amount"
        ? a.amountCents - b.amountCents
        : a.timestamp.localeCompare(b.timestamp) || a.paymentId.localeCompare(b.paymentId);
    return sign * d;
  });
  return rows;
}

export async function listAccountPayments(
  bank: BankClient,
  q: z.output<typeof PaymentsQuery>,
): Promise<PaymentsResponse> {
  const rows = await matchingPayments(bank, q);
  const start = (q.page - 1) * q.pageSize;
  return {
    account: q.account,
    from: q.from,
    to: q.to,
    payments: rows.slice(start, start + q.pageSize).map(({ row }) => row),
    total: rows.length,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** The payments the filters match, every page of them, as CSV with each record's every field. */
export async function exportAccountPayments(bank: BankClient, q: PaymentsFilter): Promise<string> {
  return paymentsToCsv(await matchingPayments(bank, q));
}

/** One payment with every field, and the history entries that carry its id. */
export async function paymentDetail(
  db: Queryable,
  bank: BankClient,
  account: string,
  paymentId: string,
): Promise<PaymentDetailResponse | null> {
  const [list, hist] = await Promise.all([
    bank.call("listPayments", { query: { account_number: account, payment_id: paymentId } }),
    bank.call("history", { query: { accountNumber: account, paymentId } }),
  ]);
  const record = unwrap(list)[0];
  if (!record) return null;
  const txs = hist.ok ? hist.data.ResponseData.flatMap((d) => d.TRANSACTION) : [];
  return {
    account,
    story: await paymentStory(db, record),
    record,
    amountCents: toCents(record.amount, "amount"),
    history: txs.map((t) => ({
      date: t.TRANDATE,
      uniqueId: t.UniqueId,
      amountCents: Math.abs(toCents(t.TRANAMT, "TRANAMT")),
      direction: t.DRCRFLAG.toUpperCase().startsWith("D") ? "debit" : "credit",
      description: t.TRANDESC,
      descriptions: TRANDESC_FIELDS.map((f) => t[f]).filter((d) => d && d.trim() !== ""),
    })),
  };
}
