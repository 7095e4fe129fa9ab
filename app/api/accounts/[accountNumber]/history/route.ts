// GET /api/accounts/[accountNumber]/history?from&to&order - transactions over at most 93 days (HistoryResponse)
import { z } from "zod";
import { readHistory } from "@/lib/accounts/views.ts";
import { accountNumberFrom, addDays, businessToday } from "@/lib/api/params.ts";
import { withRoute } from "@/lib/api/route.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  HISTORY_REQUEST_MAX_DAYS,
  historyRangeSchema,
  isCalendarDay,
} from "@/lib/dashboard-api/history-range.ts";
import { HistoryResponse } from "@/lib/dashboard-api/index.ts";

const order = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(["A", "D"], { error: "must be A (oldest first) or D (newest first)" }))
  .default("D");

// Both days default (the last 30 days up to the bank's today); the range itself is checked by
// the schema the date-range form and the address use too.
const historyQuery = z
  .object({ from: z.string().optional(), to: z.string().optional(), order })
  .transform((q) => {
    const to = q.to ?? businessToday();
    // A broken end date alone is its own error: the start then defaults from the bank's today.
    return { ...q, to, from: q.from ?? addDays(isCalendarDay(to) ? to : businessToday(), -29) };
  })
  .pipe(historyRangeSchema(HISTORY_REQUEST_MAX_DAYS));

export const GET = withRoute<
  typeof historyQuery,
  undefined,
  { accountNumber: string },
  typeof HistoryResponse
>(
  async ({ params, query }) => {
    const accountNumber = accountNumberFrom(params);
    return readHistory(await getBankClient(), {
      accountNumber,
      from: query.from,
      to: query.to,
      order: query.order,
    });
  },
  { permission: "accounts.read", query: historyQuery, response: HistoryResponse },
);
