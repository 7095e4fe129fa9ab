// GET /api/accounts/[accountNumber] - one account: balance record and cash-manager balance (AccountDetailResponse)

import { accountDetail } from "@/lib/accounts/views.ts";
import { notFound } from "@/lib/api/errors.ts";
import { AccountParams } from "@/lib/api/params.ts";
import { withRoute } from "@/lib/api/route.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { AccountDetailResponse } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(
  async ({ params }) => {
    const detail = await accountDetail(await getBankClient(), params.accountNumber);
    if (!detail) throw notFound("No account with this number belongs to your organisation.");
    return detail;
  },
  { params: AccountParams, permission: "accounts.read", response: AccountDetailResponse },
);
