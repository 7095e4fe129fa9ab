// GET /api/payments?account&from&to&direction&status&sort&page&pageSize - one account's wires
// over at most 32 days (PaymentsResponse).

import { getBankClient } from "@/lib/bank-client/index.ts";
import { PaymentsQuery, PaymentsResponse } from "@/lib/dashboard-api/payments.ts";
import { listAccountPayments } from "@/lib/payments/list.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ query }) => listAccountPayments(await getBankClient(), query), {
  permission: "accounts.read",
  query: PaymentsQuery,
  response: PaymentsResponse,
});
