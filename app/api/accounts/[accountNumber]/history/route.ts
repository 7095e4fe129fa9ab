// GET /api/accounts/[accountNumber]/history?from&to&order - transactions over at most 93 days (HistoryResponse)
import { z } from "zod";
import { daysOf, HISTORY_MAX_DAYS, readHistory } from "@/lib/accounts/views.ts";
import { invalid } from "@/lib/api/errors";
import { accountNumberFrom, addDays, businessToday, isoDay } from "@/lib/api/params";
import { withRoute } from "@/lib/api/route";
import { getBankClient } from "@/lib/bank-client";
import { HistoryResponse } from "@/lib/dashboard-api/index.ts";

const historyQuery = z.object({
  from: isoDay.optional(),
  to: isoDay.optional(),
  order: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(["A", "D"], { error: "must be A (oldest first) or D (newest first)" }))
    .default("D"),
});

export const GET = withRoute<
  typeof historyQuery,
  undefined,
  { accountNumber: string },
  typeof HistoryResponse
>(
  async ({ params, query }) => {
    const accountNumber = accountNumberFrom(params);
    const to = query.to ?? businessToday();
    const from = query.from ?? addDays(to, -29);
    if (from > to) throw invalid([{ field: "from", message: "must not be after to" }]);
    if (daysOf(from, to).length > HISTORY_MAX_DAYS)
      throw invalid([{ field: "from", message: `the range can span at most ${HISTORY_MAX_DAYS} days` }]);
    return readHistory(await getBankClient(), { accountNumber, from, to, order: query.order });
  },
  { permission: "accounts.read", query: historyQuery, response: HistoryResponse },
);
