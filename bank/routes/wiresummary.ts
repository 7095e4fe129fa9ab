// GET /v2/account/wiresummary - e-wire summaries by account+date+direction, transaction number or UniqueId
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { longError } from "../../lib/bank-api/errors.ts";
import type { WireSummaryResponse } from "../../lib/bank-api/wiresummary.ts";
import type { Bank } from "../context.ts";
import type { Router } from "../http/router.ts";
import { ownedAccount } from "../ledger/accounts.ts";
import { summariesByReference, summariesOfDay } from "../payments/summaries.ts";

export function registerWireSummaryRoutes(router: Router, bank: Bank) {
  router.v2(endpoints.wireSummary, async ({ customer, query }): Promise<WireSummaryResponse> => {
    const SequenceNumber = query.sequenceNumber ?? 0;
    const answer = (items: WireSummaryResponse["EwireSummaries"]): WireSummaryResponse => ({
      Errors: [],
      SequenceNumber,
      RecordCount: items.length,
      EwireSummaries: items,
    });
    if (query.accountNumber && !(await ownedAccount(bank.db, customer.id, query.accountNumber))) {
      return {
        Errors: [longError("ACCOUNT_NOT_FOUND", "accountNumber")],
        SequenceNumber,
        RecordCount: 0,
        EwireSummaries: [],
      };
    }
    if (query.uniqueId || query.transactionNumber) {
      const found = await summariesByReference(bank.db, customer.id, {
        uniqueId: query.uniqueId,
        transactionNumber: query.transactionNumber,
        accountNumber: query.accountNumber,
      });
      if (!found.length) {
        const field = query.uniqueId ? "uniqueId" : "transactionNumber";
        return { ...answer([]), Errors: [longError("TRANSACTION_NOT_FOUND", field)] };
      }
      return answer(found);
    }
    const date = query.date as NonNullable<typeof query.date>;
    const day = date.kind === "instant" ? bank.clock.businessDate(date.instant) : date.date;
    return answer(
      await summariesOfDay(bank.db, query.accountNumber as string, day, query.sourceIndicator as "I" | "O"),
    );
  });
}
