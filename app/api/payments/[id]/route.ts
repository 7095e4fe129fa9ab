// GET /api/payments/[id]?account - one payment's story (who did what, the bank's statuses), every
// field of it and its history entries
// (PaymentDetailResponse).
import { invalid, notFound } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { PaymentDetailQuery, PaymentDetailResponse } from "@/lib/dashboard-api/payments.ts";
import { paymentDetail } from "@/lib/payments/list.ts";

export const GET = withRoute<
  typeof PaymentDetailQuery,
  undefined,
  { id: string },
  typeof PaymentDetailResponse
>(
  async ({ db, query, params }) => {
    if (!/^[A-Za-z0-9]{1,20}$/.test(params.id))
      throw invalid([{ field: "id", message: "must be a payment id (letters and digits)" }]);
    const detail = await paymentDetail(db, await getBankClient(), query.account, params.id);
    if (!detail) throw notFound("No such payment on this account.");
    return detail;
  },
  { permission: "accounts.read", query: PaymentDetailQuery, response: PaymentDetailResponse },
);
