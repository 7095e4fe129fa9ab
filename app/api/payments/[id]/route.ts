// GET /api/payments/[id]?account - one payment's story (who did what, the bank's statuses), every
// field of it and its history entries
// (PaymentDetailResponse).

import { getBankClient } from "@/lib/bank-client/index.ts";
import { PaymentDetailQuery, PaymentDetailResponse } from "@/lib/dashboard-api/payments.ts";
import { paymentDetail } from "@/lib/payments/list.ts";
import { notFound } from "@/lib/route-kit/errors.ts";
import { PaymentIdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db, query, params }) => {
    const detail = await paymentDetail(db, await getBankClient(), query.account, params.id);
    if (!detail) throw notFound("No such payment on this account.");
    return detail;
  },
  {
    params: PaymentIdParams,
    permission: "accounts.read",
    query: PaymentDetailQuery,
    response: PaymentDetailResponse,
  },
);
