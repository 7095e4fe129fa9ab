// GET /api/payments?account&from&to&direction&status&sort&page&pageSize - one account's wires
// over at most 32 days (PaymentsResponse).
import { withRoute } from "@/lib/api/route";
import { getBankClient } from "@/lib/bank-client";
import { PaymentsQuery, PaymentsResponse } from "@/lib/dashboard-api/payments";
import { listAccountPayments } from "@/lib/payments/list";

export const GET = withRoute(async ({ query }) => listAccountPayments(await getBankClient(), query), {
  permission: "accounts.read",
  query: PaymentsQuery,
  response: PaymentsResponse,
});
