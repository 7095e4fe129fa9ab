// GET /api/accounts/[accountNumber]/ahead - the account's available balance projected over the
// next 30 business days (BalanceAheadResponse): scheduled occurrences and sweeps, drafts waiting
// for release and incoming wires waiting for a decision, each kind apart; the first day below zero
// or below the account's low alert line.

import { getBankClient } from "@/lib/bank-client/index.ts";
import { BalanceAheadResponse } from "@/lib/dashboard-api/schedules.ts";
import { AccountParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { readBalanceAhead } from "@/lib/schedules/ahead-read.ts";

export const GET = withRoute(
  async ({ db, params }) => {
    const account = params.accountNumber;
    const { today, accounts, notes } = await readBalanceAhead(db, await getBankClient(), [account]);
    return { today, notes, ...accounts[0] };
  },
  { params: AccountParams, permission: "accounts.read", response: BalanceAheadResponse },
);
