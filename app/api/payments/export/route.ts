// GET /api/payments/export?account&from&to&direction&status&sort - the payments the page's filters
// match, every page of them, as a CSV download (text/csv) with every field of each record.

import { getBankClient } from "@/lib/bank-client/index.ts";
import { PaymentsQuery } from "@/lib/dashboard-api/payments.ts";
import { exportAccountPayments } from "@/lib/payments/list.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ query }) =>
    new Response(await exportAccountPayments(await getBankClient(), query), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="payments-${query.account}-${query.from}-to-${query.to}.csv"`,
        "Cache-Control": "no-store",
      },
    }),
  { permission: "accounts.read", query: PaymentsQuery },
);
