// GET /api/accounts - every account with its balances and the totals (AccountsResponse)

import { listAccounts } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { AccountsResponse } from "@/lib/dashboard-api/index.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async () => listAccounts(await getBankClient()), {
  permission: "accounts.read",
  response: AccountsResponse,
});
