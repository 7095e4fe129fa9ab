// GET /api/accounts - every account with its balances and the totals (AccountsResponse)
import { withRoute } from "@/lib/api/route";
import { getBankClient } from "@/lib/bank-client";
import { listAccounts } from "@/lib/bank-client/accounts";
import { AccountsResponse } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(async () => listAccounts(await getBankClient()), {
  permission: "accounts.read",
  response: AccountsResponse,
});
