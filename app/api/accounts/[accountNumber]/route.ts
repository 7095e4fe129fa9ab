// GET /api/accounts/[accountNumber] - one account: balance record and cash-manager balance (AccountDetailResponse)

import { accountDetail } from "@/lib/accounts/views.ts";
import { notFound } from "@/lib/api/errors.ts";
import { accountNumberFrom } from "@/lib/api/params.ts";
import { withRoute } from "@/lib/api/route.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { AccountDetailResponse } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute<undefined, undefined, { accountNumber: string }, typeof AccountDetailResponse>(
  async ({ params }) => {
    const detail = await accountDetail(await getBankClient(), accountNumberFrom(params));
    if (!detail) throw notFound("No account with this number belongs to your organisation.");
    return detail;
  },
  { permission: "accounts.read", response: AccountDetailResponse },
);
