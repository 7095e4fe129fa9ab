// Transaction history: ledger entries read back as the specification's TRANSACTION items.
import {
  EXTENDED_HISTORY_MAX_ITEMS,
  encodeUniqueId,
  HISTORY_MAX_ITEMS,
  type Transaction,
  type UniqueIdParts,
} from "../../lib/bank-api/history.ts";
import { centsToDecimal, centsToDollars, dollarsToCents } from "../../lib/bank-api/money.ts";
import type { AsText, SqlRow } from "../../lib/server/sql-row.ts";
import type { Queryable } from "../db/client.ts";
import type { ledgerEntries } from "../db/schema.ts";

/** A ledger entry as history reads it; `posted_at` as PostgreSQL writes a timestamptz in JSON, turned into a Date only where shown. */
export type EntryRow = AsText<
  Pick<
    SqlRow<typeof ledgerEntries>,
    | "id"
    | "account_number"
    | "posted_at"
    | "tran_date"
    | "amount_cents"
    | "dr_cr"
    | "tran_code"
    | "descriptions"
    | "available_after_cents"
    | "idempotency_key"
    | "payment_id"
    | "transfer_id"
    | "counterparty_account"
    | "counterparty_name"
    | "sender_memo"
    | "memo_post"
  >,
  "posted_at"
>;

// Rows travel from the database as one JSON text of positional arrays: parsing a text[] column
// per row costs far more (PGlite most of all) than one JSON.parse of the whole page, and arrays
// are cheaper to build than objects with repeated keys.
const ROW_ARRAY = `json_build_array(id, account_number, posted_at, tran_date, amount_cents, dr_cr, tran_code,
  descriptions, available_after_cents, idempotency_key, payment_id, transfer_id, counterparty_account,
  counterparty_name, sender_memo, memo_post)`;

type RowArray = [
  number,
  string,
  string,
  string,
  number,
  "D" | "C",
  string,
  string[],
  number,
  string,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  boolean,
];

/** Runs `SELECT <row> FROM ledger_entries WHERE <where> ORDER BY <order> LIMIT n` and parses the page. */
async function selectEntries(
  db: Queryable,
  where: string,
  order: string,
  params: unknown[],
  limit: number,
): Promise<EntryRow[]> {
  const rows = await db.query<{ page: string }>(
    `SELECT coalesce(json_agg(${ROW_ARRAY} ORDER BY ${order}), '[]')::text AS page
     FROM (SELECT * FROM ledger_entries WHERE ${where} ORDER BY ${order} LIMIT ${Number(limit)}) le`,
    params,
  );
  return (JSON.parse(rows[0].page) as RowArray[]).map((r) => ({
    id: r[0],
    account_number: r[1],
    posted_at: r[2],
    tran_date: r[3],
    amount_cents: r[4],
    dr_cr: r[5],
    tran_code: r[6],
    descriptions: r[7],
    available_after_cents: r[8],
    idempotency_key: r[9],
    payment_id: r[10],
    transfer_id: r[11],
    counterparty_account: r[12],
    counterparty_name: r[13],
    sender_memo: r[14],
    memo_post: r[15],
  }));
}

export function uniqueIdParts(
  e: Pick<EntryRow, "account_number" | "tran_date" | "amount_cents" | "tran_code" | "descriptions">,
): UniqueIdParts {
  return {
    AccountNumber: e.account_number,
    TransactionDate: e.tran_date.replaceAll("-", ""),
    TransactionAmount: centsToDecimal(e.amount_cents),
    TransactionCode: e.tran_code,
    Description: e.descriptions[0] ?? "",
    ExtendedDescriptionLine2: e.descriptions[1] ?? "",
  };
}

export function toTransaction(e: EntryRow): Transaction {
  const d = (i: number) => e.descriptions[i] ?? "";
  return {
    TRANDATE: e.tran_date,
    TRANCD: e.tran_code,
    TRANAMT: centsToDollars(e.amount_cents),
    CHECKNBR: "0",
    IDEMPOTENCYKEY: e.idempotency_key,
    TRANDESC: d(0),
    TRANDESCS: d(1),
    TRANDESC3: d(2),
    TRANDESC4: d(3),
    TRANDESC5: d(4),
    TRANDESC6: d(5),
    TRANDESC7: d(6),
    TRANDESC8: d(7),
    TRANDESC9: d(8),
    TRANDESC10: d(9),
    TRANDESC11: d(10),
    EFFDATE: e.tran_date,
    CURRAVAILBAL: centsToDollars(e.available_after_cents),
    TRANCDX: e.tran_code,
    MEMOPSTIND: e.memo_post ? "M" : "",
    DRCRFLAG: e.dr_cr,
    IMAGEFLAG: "",
    ORIGPROCDT: "0",
    ORIGSRC: "",
    ORIGSUBSRC: "",
    UniqueId: encodeUniqueId(uniqueIdParts(e)),
    PaymentId: e.payment_id,
    SenTransferResponse: e.transfer_id
      ? {
          CounterPartyAccountNumber: e.counterparty_account ?? "",
          Timestamp: new Date(e.posted_at).toISOString(),
          SenderMemo: e.sender_memo ?? "",
          CounterPartyLegalName: e.counterparty_name ?? "",
        }
      : null,
  };
}

export interface HistoryPage {
  items: Transaction[];
  more: boolean;
}

function page(rows: EntryRow[], max: number): HistoryPage {
  const more = rows.length > max;
  return { items: (more ? rows.slice(0, max) : rows).map(toTransaction), more };
}

/** Entries of one account between two business dates; one more row than the cap tells MOREDATA. */
export async function entriesBetween(
  db: Queryable,
  account: string,
  from: string,
  to: string,
  order: "A" | "D",
  max: number = HISTORY_MAX_ITEMS,
): Promise<HistoryPage> {
  const dir = order === "D" ? "DESC" : "ASC";
  const rows = await selectEntries(
    db,
    "account_number = $1 AND tran_date BETWEEN $2 AND $3",
    `tran_date ${dir}, id ${dir}`,
    [account, from, to],
    max + 1,
  );
  return page(rows, max);
}

export const entriesOfDay = (db: Queryable, account: string, date: string, order: "A" | "D") =>
  entriesBetween(db, account, date, date, order, EXTENDED_HISTORY_MAX_ITEMS);

export async function entriesByPaymentId(
  db: Queryable,
  account: string,
  paymentId: string,
  order: "A" | "D",
) {
  const dir = order === "D" ? "DESC" : "ASC";
  const rows = await selectEntries(
    db,
    "account_number = $1 AND payment_id = $2",
    `id ${dir}`,
    [account, paymentId],
    HISTORY_MAX_ITEMS + 1,
  );
  return page(rows, HISTORY_MAX_ITEMS);
}

/** The entries a UniqueId names: the fields it encodes, matched on the account and day it names. */
export async function entriesByUniqueId(db: Queryable, parts: UniqueIdParts) {
  const d = parts.TransactionDate;
  const date = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  const cents = dollarsToCents(parts.TransactionAmount);
  // A forged id with an impossible date or amount matches nothing (and must not reach SQL as one).
  if (
    !/^\d{8}$/.test(d) ||
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date ||
    cents === null
  ) {
    return page([], HISTORY_MAX_ITEMS);
  }
  const rows = await selectEntries(
    db,
    "account_number = $1 AND tran_date = $2 AND amount_cents = $3 AND tran_code = $4 AND coalesce(descriptions[1], '') = $5 AND coalesce(descriptions[2], '') = $6",
    "id",
    [
      parts.AccountNumber,
      date,
      cents,
      parts.TransactionCode,
      parts.Description,
      parts.ExtendedDescriptionLine2,
    ],
    HISTORY_MAX_ITEMS + 1,
  );
  return page(rows, HISTORY_MAX_ITEMS);
}
