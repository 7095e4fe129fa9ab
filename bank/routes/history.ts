// Transaction history: a date range (at most 520 items) or one day (at most 5,000 items).
import { accountAnswer } from "../../lib/bank-api/account-response.ts";
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { longError } from "../../lib/bank-api/errors.ts";
import type { WireDate } from "../../lib/bank-api/fields.ts";
import { decodeUniqueId, type HistoryResponse } from "../../lib/bank-api/history.ts";
import type { Bank } from "../context.ts";
import { badField } from "../http/errors.ts";
import type { Router } from "../http/router.ts";
import { ownedAccount } from "../ledger/accounts.ts";
import {
  entriesBetween,
  entriesByPaymentId,
  entriesByUniqueId,
  entriesOfDay,
  type HistoryPage,
} from "../ledger/history.ts";

/** A date parameter as a business date: an RFC 3339 instant is read in the bank's time zone. */
function businessDay(bank: Bank, d: WireDate | undefined): string {
  if (!d) return bank.clock.businessDate();
  return d.kind === "instant" ? bank.clock.businessDate(d.instant) : d.date;
}

function response(sequence: number, p: HistoryPage): HistoryResponse {
  return accountAnswer(sequence, [
    { RECS_RETURNED: p.items.length, MOREDATA: p.more ? "Y" : "N", TRANSACTION: p.items },
  ]);
}

function rejected(sequence: number, code: Parameters<typeof longError>[0], field: string): HistoryResponse {
  return accountAnswer(
    sequence,
    [{ RECS_RETURNED: 0, MOREDATA: "N", TRANSACTION: [] }],
    [longError(code, field)],
  );
}

export function registerHistoryRoutes(router: Router, bank: Bank) {
  // GET /v2/account/history - by date range, uniqueId or paymentId
  router.v2(endpoints.history, async ({ customer, query }) => {
    const seq = query.sequenceNumber ?? 0;
    const order = query.displayOrder ?? "A";
    if (query.uniqueId !== undefined) {
      const parts = decodeUniqueId(query.uniqueId);
      if (!parts) throw badField("uniqueId", "is not a UniqueId returned by this service");
      if (query.accountNumber && query.accountNumber !== parts.AccountNumber) {
        throw badField("uniqueId", "belongs to another account than accountNumber");
      }
      if (!(await ownedAccount(bank.db, customer.id, parts.AccountNumber)))
        return rejected(seq, "ACCOUNT_NOT_FOUND", "uniqueId");
      return response(seq, await entriesByUniqueId(bank.db, parts));
    }
    const account = query.accountNumber as string;
    if (!(await ownedAccount(bank.db, customer.id, account)))
      return rejected(seq, "ACCOUNT_NOT_FOUND", "accountNumber");
    if (query.paymentId)
      return response(seq, await entriesByPaymentId(bank.db, account, query.paymentId, order));
    // Both default to today; an endDate alone reads from that day.
    const end = query.endDate ? businessDay(bank, query.endDate) : bank.clock.businessDate();
    const begin = query.beginDate
      ? businessDay(bank, query.beginDate)
      : end < bank.clock.businessDate()
        ? end
        : bank.clock.businessDate();
    if (end < begin) throw badField("endDate", "must not be before beginDate");
    return response(seq, await entriesBetween(bank.db, account, begin, end, order));
  });

  // GET /v2/account/extendedhistory - one whole day
  router.v2(endpoints.extendedHistory, async ({ customer, query }) => {
    const seq = query.sequenceNumber ?? 0;
    if (!(await ownedAccount(bank.db, customer.id, query.accountNumber)))
      return rejected(seq, "ACCOUNT_NOT_FOUND", "accountNumber");
    return response(
      seq,
      await entriesOfDay(
        bank.db,
        query.accountNumber,
        businessDay(bank, query.date),
        query.displayOrder ?? "A",
      ),
    );
  });
}
