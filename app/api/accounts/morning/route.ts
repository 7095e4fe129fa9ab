// GET /api/accounts/morning - per account and in total: the change since the previous business
// day's close, and money in and out today, from the bank's history (MorningCheckResponse).
import { morningCheck } from "@/lib/accounts/morning.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { MorningCheckResponse } from "@/lib/dashboard-api/accounts.ts";
import { businessToday } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async () => morningCheck(await getBankClient(), () => businessToday()), {
  permission: "accounts.read",
  response: MorningCheckResponse,
});
