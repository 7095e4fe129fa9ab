// E-wire summaries (GET /v2/account/wiresummary): by account, day and direction, by
// transaction number or by the UniqueId that history also shows. Only the customer's own.
import type { EwireSummary } from "../../lib/bank-api/wiresummary.ts";
import type { Queryable } from "../db/client.ts";

export async function summariesOfDay(
  q: Queryable,
  account: string,
  date: string,
  source: "I" | "O",
): Promise<EwireSummary[]> {
  const rows = await q.query<{ record: EwireSummary }>(
    `SELECT record FROM wire_summaries WHERE account_number = $1 AND summary_date = $2 AND source_indicator = $3
     ORDER BY transaction_number`,
    [account, date, source],
  );
  return rows.map((r) => r.record);
}

/** Summaries by transaction number and/or UniqueId, limited to the customer's accounts (and one account if named). */
export async function summariesByReference(
  q: Queryable,
  customerId: number,
  ref: { transactionNumber?: string; uniqueId?: string; accountNumber?: string },
): Promise<EwireSummary[]> {
  const where = ["a.customer_id = $1"];
  const params: unknown[] = [customerId];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(`${sql}$${params.length}`);
  };
  if (ref.transactionNumber) add("w.transaction_number = ", ref.transactionNumber);
  if (ref.uniqueId) add("w.unique_id = ", ref.uniqueId);
  if (ref.accountNumber) add("w.account_number = ", ref.accountNumber);
  const rows = await q.query<{ record: EwireSummary }>(
    `SELECT w.record FROM wire_summaries w JOIN accounts a ON a.number = w.account_number
     WHERE ${where.join(" AND ")} ORDER BY w.transaction_number`,
    params,
  );
  return rows.map((r) => r.record);
}
