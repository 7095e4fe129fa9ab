// GET /api/inbox/shortfalls - each of the organisation's accounts whose balance ahead falls below
// zero or below its low alert line within 30 business days (ShortfallsResponse): the first such
// day, the projected balance and the payments out that lead there. The inbox shows them days ahead.

import { accountNames, ownAccountNumbers } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { ShortfallsResponse } from "@/lib/dashboard-api/schedules.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { readBalanceAhead } from "@/lib/schedules/ahead-read.ts";

export const GET = withRoute(
  async ({ db }) => {
    const bank = await getBankClient();
    const [own, names] = await Promise.all([ownAccountNumbers(bank), accountNames(bank)]);
    const { today, accounts, notes } = await readBalanceAhead(db, bank, [...own].sort());
    return {
      today,
      notes,
      shortfalls: accounts.flatMap((a) =>
        a.shortfall
          ? [
              {
                accountNumber: a.accountNumber,
                accountName: names.get(a.accountNumber) ?? a.accountNumber,
                ...a.shortfall,
              },
            ]
          : [],
      ),
    };
  },
  { permission: "accounts.read", response: ShortfallsResponse },
);
