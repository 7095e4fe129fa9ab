// GET /api/accounts/[accountNumber]/balance - the account's balances alone (BalanceResponse)

import { accountBalance } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { BalanceResponse } from "@/lib/dashboard-api/index.ts";
import { AccountParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ params }): Promise<BalanceResponse> => accountBalance(await getBankClient(), params.accountNumber),
  { params: AccountParams, permission: "accounts.read", response: BalanceResponse },
);
