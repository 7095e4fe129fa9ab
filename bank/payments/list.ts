// GET /v2/payment: an account's wires by id or by date range, paged.

import { daysBetween } from "../../lib/bank-api/dates.ts";
import type { WireDate } from "../../lib/bank-api/fields.ts";
import {
  PAYMENT_PAGE_SIZE_DEFAULT,
  PAYMENT_WINDOW_DAYS,
  type PaymentListQuery,
} from "../../lib/bank-api/payments.ts";
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/client.ts";
import { badField } from "../http/errors.ts";

/** A date bound: a plain date compares with the payment date, an instant with the entry time. */
function bound(d: WireDate, clock: Clock): { date: string; instant?: Date } {
  return d.kind === "instant"
    ? { date: clock.businessDate(d.instant), instant: d.instant }
    : { date: d.date };
}

/**
 * The records as one JSON array text: each payment's record is rendered when it is written, so
 * a page of 1,000 is a concatenation. Throws the 400 of a malformed
 * range (end before begin, wider than 32 days).
 */
export async function listPaymentsJson(q: Queryable, clock: Clock, query: PaymentListQuery): Promise<string> {
  // The account's own wires, and book transfers from another account of this bank into it.
  const where = ["(account_number = $1 OR (direction = 'Internal' AND details->>'credit_account_id' = $1))"];
  const params: unknown[] = [query.account_number];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace("?", `$${params.length}`));
  };
  if (query.payment_id) add("id = ?", query.payment_id);
  if (query.begin_date) {
    const begin = bound(query.begin_date, clock);
    const end = query.end_date ? bound(query.end_date, clock) : { date: clock.businessDate() };
    const endField = query.end_date ? "end_date" : "begin_date";
    if (end.date < begin.date || (end.instant && begin.instant && end.instant < begin.instant))
      throw badField(endField, "must not be before begin_date");
    if (daysBetween(begin.date, end.date) > PAYMENT_WINDOW_DAYS)
      throw badField(endField, `must be within ${PAYMENT_WINDOW_DAYS} days of begin_date`);
    if (begin.instant) add("entry_at >= ?", begin.instant);
    else add("payment_date >= ?", begin.date);
    if (end.instant) add("entry_at <= ?", end.instant);
    else add("payment_date <= ?", end.date);
  } else if (query.end_date) {
    throw badField("begin_date", "is required with end_date");
  }
  const dir = query.sort_order === "desc" ? "DESC" : "ASC";
  const size = query.page_size ?? PAYMENT_PAGE_SIZE_DEFAULT;
  const page = query.page_number ?? 1;
  params.push(size, (page - 1) * size);
  const order = `payment_date ${dir}, entry_at ${dir}, id ${dir}`;
  const rows = await q.query<{ records: string }>(
    `SELECT '[' || coalesce(string_agg(record, ',' ORDER BY ${order}), '') || ']' AS records FROM (
       SELECT payment_date, entry_at, id, record FROM payments WHERE ${where.join(" AND ")}
       ORDER BY ${order} LIMIT $${params.length - 1} OFFSET $${params.length}) page`,
    params,
  );
  return rows[0].records;
}
