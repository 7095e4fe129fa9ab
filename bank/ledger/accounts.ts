// Accounts as the API shows them: list records, balance records, ownership checks.
import { randomInt } from "node:crypto";
import type { BalanceRecord, CustAcct } from "../../lib/bank-api/accounts.ts";
import { centsToDollars } from "../../lib/bank-api/money.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Queryable } from "../db/client.ts";
import type { accounts } from "../db/schema.ts";

export type AccountRow = Pick<
  SqlRow<typeof accounts>,
  | "number"
  | "customer_id"
  | "type"
  | "status"
  | "title_lines"
  | "short_name"
  | "opened_on"
  | "available_cents"
  | "current_cents"
  | "holds_cents"
  | "last_deposit_cents"
  | "last_deposit_on"
>;

const COLUMNS =
  "number, customer_id, type, status, title_lines, short_name, opened_on, available_cents, current_cents, holds_cents, last_deposit_cents, last_deposit_on";

const PRODUCTS = {
  DDA: { code: "110", desc: "Commercial Checking" },
  SEN: { code: "210", desc: "SEN Exchange Account" },
} as const;

export const STATUS_DESCRIPTIONS: Record<string, string> = { A: "Active", C: "Closed", D: "Dormant" };

export async function accountsOfCustomer(db: Queryable, customerId: number): Promise<AccountRow[]> {
  return db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE customer_id = $1 ORDER BY number`, [
    customerId,
  ]);
}

/** The customer's own account, or null: another customer's account is indistinguishable from none. */
export async function ownedAccount(
  db: Queryable,
  customerId: number,
  number: string,
): Promise<AccountRow | null> {
  const rows = await db.query<AccountRow>(
    `SELECT ${COLUMNS} FROM accounts WHERE number = $1 AND customer_id = $2`,
    [number, customerId],
  );
  return rows[0] ?? null;
}

export function custAcctRecord(a: AccountRow): CustAcct {
  const p = PRODUCTS[a.type];
  const t = a.title_lines;
  return {
    APPLCD: "DDA",
    APPLDESC: "Demand Deposit",
    ACTNBR: a.number,
    PRODTYPE: p.code,
    PRODDESC: p.desc,
    RELTYPE: "OWN",
    RELTYPEDSC: "Owner",
    ACTSTATUS: a.status,
    LGLTTLLN1: t[0] ?? "",
    LGLTTLLN2: t[1] ?? "",
    LGLTTLLN3: t[2] ?? "",
    LGLTTLLN4: t[3] ?? "",
    LGLTTLLN5: t[4] ?? "",
    LGLTTLLN6: t[5] ?? "",
    SHORTNAME: a.short_name,
  };
}

/** Last day of the month before `date` (the statement date). */
export function lastStatementDate(date: string): string {
  const d = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCDate(0);
  return d.toISOString().slice(0, 10);
}

export async function balanceRecord(db: Queryable, a: AccountRow, today: string): Promise<BalanceRecord> {
  const stmtDate = lastStatementDate(today);
  const stmt = await db.query<{ bal: number | null }>(
    `SELECT available_after_cents AS bal FROM ledger_entries
     WHERE account_number = $1 AND tran_date <= $2 ORDER BY tran_date DESC, id DESC LIMIT 1`,
    [a.number, stmtDate],
  );
  const d = centsToDollars;
  const yn = (b: boolean) => (b ? "Y" : "N");
  return {
    ACTNBR: a.number,
    SHORTNAME: a.short_name,
    ACTOPNDT: a.opened_on,
    OFFICERCD: "API",
    LSTDEPDT: a.last_deposit_on ?? "",
    STATUS: a.status,
    STATDESC: STATUS_DESCRIPTIONS[a.status] ?? a.status,
    LSTSTMTDT: stmtDate < a.opened_on ? "" : stmtDate,
    OFFICERCD2: "",
    RRSAVAFLG: "N",
    DYNAVAFLG: "N",
    DDAVAFLG: "Y",
    LNAVAFLG: "N",
    ODLMTFLG: "N",
    CUSTFLTFLG: "N",
    BNKFLTFLG: "N",
    HOLDSFLAG: yn(a.holds_cents > 0),
    CHKSPDTDY: "N",
    AVAILBAL: d(a.available_cents),
    CURRBAL: d(a.current_cents),
    TOTALHOLDS: d(a.holds_cents),
    ACCRINT: 0,
    YTDINT: 0,
    LSTDEPAMT: d(a.last_deposit_cents),
    LSTSTMTBAL: d(stmt[0]?.bal ?? 0),
    RRSAVAAMT: 0,
    DYNAVAAMT: 0,
    DDAVAAMT: d(a.available_cents),
    LNAVAAMT: 0,
    ODLMTAMT: 0,
    CUSTFLTAMT: 0,
    BNKFLTAMT: 0,
    HOLDSAMT: d(a.holds_cents),
    CHKSPDTDYA: 0,
    AVGROLBAL: {},
    AVGROLCOL: {},
  };
}

/** Opens an account with a fresh ten-digit number; retries on the rare collision. */
export async function openAccount(
  db: Queryable,
  a: {
    customerId: number;
    type: "DDA" | "SEN";
    titleLines: string[];
    shortName: string;
    openedOn: string;
    expected?: { balance: number; incoming: number; outgoing: number };
  },
): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const number = String(randomInt(1_000_000_000, 9_999_999_999));
    const rows = await db.query<Pick<AccountRow, "number">>(
      `INSERT INTO accounts (number, customer_id, type, title_lines, short_name, opened_on,
         expected_balance, expected_incoming_month, expected_outgoing_month)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (number) DO NOTHING RETURNING number`,
      [
        number,
        a.customerId,
        a.type,
        a.titleLines,
        a.shortName.slice(0, 20),
        a.openedOn,
        a.expected?.balance ?? null,
        a.expected?.incoming ?? null,
        a.expected?.outgoing ?? null,
      ],
    );
    if (rows.length) return number;
  }
  throw new Error("could not allocate an account number");
}
