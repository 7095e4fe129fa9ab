// Account list, balances and SEN account creation.
import { accountAnswer } from "../../lib/bank-api/account-response.ts";
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { longError } from "../../lib/bank-api/errors.ts";
import { centsToDollars } from "../../lib/bank-api/money.ts";
import type { Bank } from "../context.ts";
import type { Router } from "../http/router.ts";
import {
  accountsOfCustomer,
  balanceRecord,
  custAcctRecord,
  openAccount,
  ownedAccount,
} from "../ledger/accounts.ts";

export function registerAccountRoutes(router: Router, bank: Bank) {
  // GET /v2/account/list - every account of the subscription key's customer
  router.v2(endpoints.accountList, async ({ customer, query }) => {
    const rows = await accountsOfCustomer(bank.db, customer.id);
    return accountAnswer(query.sequenceNumber ?? 0, [
      { RECS_RETURNED: rows.length, MOREDATA: "N", CUSTACCT: rows.map(custAcctRecord) },
    ]);
  });

  // GET /v2/account/balance - the full balance record of one of the customer's accounts
  router.v2(endpoints.balance, async ({ customer, query }) => {
    const a = await ownedAccount(bank.db, customer.id, query.accountNumber);
    const seq = query.sequenceNumber ?? 0;
    if (!a) return accountAnswer(seq, [], [longError("ACCOUNT_NOT_FOUND", "accountNumber")]);
    return accountAnswer(seq, [await balanceRecord(bank.db, a, bank.clock.businessDate())]);
  });

  // GET /v2/account/cashmanagerbalance - available balance and open date
  router.v2(endpoints.cashManagerBalance, async ({ customer, query }) => {
    const a = await ownedAccount(bank.db, customer.id, query.accountNumber);
    const seq = query.sequenceNumber ?? 0;
    if (!a) return accountAnswer(seq, null, [longError("ACCOUNT_NOT_FOUND", "accountNumber")]);
    return accountAnswer(seq, { AvailableBalance: centsToDollars(a.available_cents), OpenDate: a.opened_on });
  });

  // POST /v2/account/createsen - a new SEN account, titles inherited from the customer unless overridden
  router.v2(endpoints.createSen, async ({ customer, body }) => {
    const inherited = customer.titleLines.length ? customer.titleLines : [customer.name];
    const alt = [body.AltTitleLine1, body.AltTitleLine2, body.AltTitleLine3, body.AltTitleLine4];
    const titleLines = alt.some((l) => l !== undefined && l !== "")
      ? alt.map((l, i) => (l !== undefined && l !== "" ? l : (inherited[i] ?? ""))).concat(inherited.slice(4))
      : inherited;
    const number = await openAccount(bank.db, {
      customerId: customer.id,
      type: "SEN",
      titleLines: titleLines.slice(0, 6),
      shortName: customer.shortName,
      openedOn: bank.clock.businessDate(),
      expected: {
        balance: body.ExpectedBalance,
        incoming: body.ExpectedIncomingAmtMonth,
        outgoing: body.ExpectedOutgoingAmtMonth,
      },
    });
    return {
      SequenceNumber: body.SequenceNumber ?? 0,
      AccountNumber: number,
      Errors: [],
      Message: `SEN account ${number} created`,
    };
  });
}
