// One way to read an account's history in full from the bank, for the history page and the
// statements alike: one `history` call over the range, and where the bank says MOREDATA=Y (its
// 520-item cap) the range again day by day from `extendedhistory` (at most 5,000 a day: the bank
// has no further page, and a date-time given for a day is read as its business day, so no
// narrower window exists; a capped day is reported as such for the caller to refuse or note).
import { addDays } from "../bank-api/dates.ts";
import { type Transaction, TransactionSchema } from "../bank-api/history.ts";
import type { BankClient } from "../bank-client/client.ts";
import { unwrap } from "../bank-client/errors.ts";

/** Days read from `extendedhistory` at once. */
export const HISTORY_DAY_CONCURRENCY = 4;

/** One business day of history as `extendedhistory` returned it; `capped` when it holds more. */
export interface HistoryDay<E = Transaction> {
  day: string;
  txs: E[];
  capped: boolean;
}

/** Each entry of a day as the reader keeps it, from the entry and its 0-based position in the answer. */
export type EntryOf<E> = (t: Transaction, day: string, index: number) => E;

export type HistoryRead<R> =
  /** The whole range in one call (in the order asked). */
  | { kind: "range"; txs: Transaction[] }
  /** Day by day, each handed to the caller's `perDay` as read (in the order asked). */
  | { kind: "days"; days: R[] };

/** Every day from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One whole business day of an account from `extendedhistory`. */
export async function readHistoryDay(
  bank: BankClient,
  accountNumber: string,
  day: string,
  order: "A" | "D" = "A",
): Promise<HistoryDay> {
  const r = unwrap(
    await bank.call("extendedHistory", { query: { accountNumber, date: day, displayOrder: order } }),
  );
  return {
    day,
    txs: r.ResponseData.flatMap((d) => d.TRANSACTION),
    capped: r.ResponseData.some((d) => d.MOREDATA.toUpperCase() === "Y"),
  };
}

/** One whole business day, each entry turned into the caller's own value as it is checked (see `BankClient.callRecords`). */
export async function readHistoryDayEach<E>(
  bank: BankClient,
  accountNumber: string,
  day: string,
  order: "A" | "D",
  entry: EntryOf<E>,
): Promise<HistoryDay<E>> {
  const r = unwrap(
    await bank.callRecords(
      "extendedHistory",
      { query: { accountNumber, date: day, displayOrder: order } },
      { key: "TRANSACTION", schema: TransactionSchema },
      (t, k) => entry(t, day, k),
    ),
  );
  return { day, txs: r.records, capped: r.pages.some((d) => d.MOREDATA.toUpperCase() === "Y") };
}

/**
 * The account's history from `from` through `to`, or through the bank's own today when `to` is
 * left out (then the days run through the later of `today` and the newest booking the bank
 * returned, so nothing booked after the bank's midnight is missed). Each day read one by one goes
 * through `perDay` as it arrives, so a caller keeps only what it needs of thousands of entries.
 */
export async function readAccountHistory<R, E = Transaction>(
  bank: BankClient,
  q: {
    accountNumber: string;
    from: string;
    to?: string;
    today?: string;
    order: "A" | "D";
    /** The order of the entries within a day read alone (the days come in `order`); `order` by default. */
    dayOrder?: "A" | "D";
  },
  perDay: (d: HistoryDay<E>) => R | Promise<R>,
  /** Each entry of a day read alone as the caller keeps it, made as the entry is checked. */
  o: { entry?: EntryOf<E> } = {},
): Promise<HistoryRead<R>> {
  const range = unwrap(
    await bank.call("history", {
      query: {
        accountNumber: q.accountNumber,
        beginDate: q.from,
        ...(q.to ? { endDate: q.to } : {}),
        displayOrder: q.order,
      },
    }),
  );
  const txs = range.ResponseData.flatMap((d) => d.TRANSACTION);
  if (!range.ResponseData.some((d) => d.MOREDATA.toUpperCase() === "Y")) return { kind: "range", txs };
  let last = q.to ?? q.today ?? q.from;
  if (!q.to) for (const t of txs) if (t.TRANDATE > last) last = t.TRANDATE;
  const days = q.from <= last ? daysFrom(q.from, last) : [];
  if (q.order === "D") days.reverse();
  return {
    kind: "days",
    days: await mapLimit(days, HISTORY_DAY_CONCURRENCY, async (day) => {
      const order = q.dayOrder ?? q.order;
      return perDay(
        o.entry
          ? await readHistoryDayEach(bank, q.accountNumber, day, order, o.entry)
          : ((await readHistoryDay(bank, q.accountNumber, day, order)) as HistoryDay<E>),
      );
    }),
  };
}
