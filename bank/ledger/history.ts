// Transaction history: ledger entries read back as the specification's TRANSACTION items.
import {
  EXTENDED_HISTORY_MAX_ITEMS,
  encodeUniqueId,
  HISTORY_MAX_ITEMS,
  type Transaction,
  type UniqueIdParts,
} from "../../lib/bank-api/history.ts";
import { centsToDecimal, centsToDollars } from "../../lib/bank-api/money.ts";
import type { Queryable } from "../db/client.ts";

export interface EntryRow {
  id: number;
  account_number: string;
  posted_at: Date;
  tran_date: string;
  amount_cents: number;
  dr_cr: "D" | "C";
  tran_code: string;
  descriptions: string[];
  available_after_cents: number;
  idempotency_key: string;
  payment_id: string;
  transfer_id: string | null;
  counterparty_account: string | null;
  counterparty_name: string | null;
  sender_memo: string | null;
  memo_post: boolean;
}

const COLUMNS = `id, account_number, posted_at, tran_date::text AS tran_date, amount_cents, dr_cr, tran_code, descriptions,
  available_after_cents, idempotency_key, payment_id, transfer_id, counterparty_account, counterparty_name, sender_memo, memo_post`;

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
          Timestamp: e.posted_at.toISOString(),
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
  const rows = await db.query<EntryRow>(
    `SELECT ${COLUMNS} FROM ledger_entries WHERE account_number = $1 AND tran_date BETWEEN $2 AND $3
     ORDER BY tran_date ${dir}, id ${dir} LIMIT $4`,
    [account, from, to, max + 1],
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
  const rows = await db.query<EntryRow>(
    `SELECT ${COLUMNS} FROM ledger_entries WHERE account_number = $1 AND payment_id = $2 ORDER BY id ${dir} LIMIT $3`,
    [account, paymentId, HISTORY_MAX_ITEMS + 1],
  );
  return page(rows, HISTORY_MAX_ITEMS);
}

/** The entries a UniqueId names: the fields it encodes, matched on the account and day it names. */
export async function entriesByUniqueId(db: Queryable, parts: UniqueIdParts) {
  const date = `${parts.TransactionDate.slice(0, 4)}-${parts.TransactionDate.slice(4, 6)}-${parts.TransactionDate.slice(6, 8)}`;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return page([], HISTORY_MAX_ITEMS);
  const rows = await db.query<EntryRow>(
    `SELECT ${COLUMNS} FROM ledger_entries WHERE account_number = $1 AND tran_date = $2 AND tran_code = $3
       AND coalesce(descriptions[1], '') = $4 AND coalesce(descriptions[2], '') = $5
     ORDER BY id LIMIT $6`,
    [
      parts.AccountNumber,
      date,
      parts.TransactionCode,
      parts.Description,
      parts.ExtendedDescriptionLine2,
      HISTORY_MAX_ITEMS + 1,
    ],
  );
  return page(
    rows.filter((r) => centsToDecimal(r.amount_cents) === parts.TransactionAmount),
    HISTORY_MAX_ITEMS,
  );
}
