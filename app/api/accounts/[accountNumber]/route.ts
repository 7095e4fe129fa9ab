// GET /api/accounts/[accountNumber] - one account: balance record and cash-manager balance (AccountDetailResponse)

import { accountDetail } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { AccountDetailResponse } from "@/lib/dashboard-api/index.ts";
import { notFound } from "@/lib/route-kit/errors.ts";
import { AccountParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ params }) => {
    const detail = await accountDetail(await getBankClient(), params.accountNumber);
    if (!detail) throw notFound("No account with this number belongs to your organisation.");
    return detail;
  },
  { params: AccountParams, permission: "accounts.read", response: AccountDetailResponse },
);
