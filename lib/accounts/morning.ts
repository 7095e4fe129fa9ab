// The morning check: for each account and in total, what changed since the previous business day
// closed, and the money in and out today, all from the bank's transaction history (integer
// cents). Business days are the Fed's (weekends and Fed holidays skipped); on a Monday the change
// covers the weekend too.
import "server-only";
import { addBusinessDays } from "../bank-api/business-days.ts";
import { addDays } from "../bank-api/dates.ts";
import type { BankClient } from "../bank-client/client.ts";
import { unwrap } from "../bank-client/errors.ts";
import type { MorningCheckResponse } from "../dashboard-api/accounts.ts";
import { readHistory } from "./views.ts";

export async function morningCheck(bank: BankClient, bankToday: () => string): Promise<MorningCheckResponse> {
  const numbers = unwrap(await bank.call("accountList")).ResponseData.flatMap((d) =>
    d.CUSTACCT.map((a) => a.ACTNBR),
  );
  const today = bankToday();
  const since = addBusinessDays(today, -1);
  const from = addDays(since, 1);
  const accounts = await Promise.all(
    numbers.map(async (accountNumber) => {
      const h = await readHistory(bank, { accountNumber, from, to: today, order: "A" });
      let changeCents = 0;
      let inCents = 0;
      let outCents = 0;
      let inCount = 0;
      let outCount = 0;
      for (const t of h.items) {
        const signed = t.direction === "credit" ? t.amountCents : -t.amountCents;
        changeCents += signed;
        if (t.date !== today) continue;
        if (t.direction === "credit") {
          inCents += t.amountCents;
          inCount++;
        } else {
          outCents += t.amountCents;
          outCount++;
        }
      }
      return {
        accountNumber,
        changeCents,
        inCents,
        outCents,
        inCount,
        outCount,
        complete: h.truncatedDays.length === 0,
      };
    }),
  );
  const sum = (k: "changeCents" | "inCents" | "outCents") => accounts.reduce((s, a) => s + a[k], 0);
  return {
    today,
    since,
    accounts,
    totals: { changeCents: sum("changeCents"), inCents: sum("inCents"), outCents: sum("outCents") },
    complete: accounts.every((a) => a.complete),
  };
}
