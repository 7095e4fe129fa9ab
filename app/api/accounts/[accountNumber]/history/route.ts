// GET /api/accounts/[accountNumber]/history?from&to&order - transactions over at most 93 days (HistoryResponse);
// a signed-in user's, or an integration token's for an account it lists.
import { z } from "zod";
import { readHistory } from "@/lib/accounts/views.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  HISTORY_REQUEST_MAX_DAYS,
  historyRangeSchema,
  isCalendarDay,
} from "@/lib/dashboard-api/history-range.ts";
import { HistoryResponse } from "@/lib/dashboard-api/index.ts";
import { sessionOrToken, tokenMayRead } from "@/lib/integration/tokens.ts";
import { fieldsOf, invalid } from "@/lib/route-kit/errors.ts";
import { AccountParams, addDays, businessToday } from "@/lib/route-kit/params.ts";
import { parsePathParams, withRoute } from "@/lib/route-kit/route.ts";

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

const bySession = withRoute(
  async ({ params, query }) => {
    return readHistory(await getBankClient(), {
      accountNumber: params.accountNumber,
      from: query.from,
      to: query.to,
      order: query.order,
    });
  },
  { params: AccountParams, permission: "accounts.read", query: historyQuery, response: HistoryResponse },
);

export const GET = sessionOrToken<{ accountNumber: string }>(bySession, async ({ req, params, token }) => {
  // A token's request is read here, not by withRoute: its account number is checked the same way.
  const { accountNumber } = parsePathParams(AccountParams, params);
  tokenMayRead(token, [accountNumber]);
  const r = historyQuery.safeParse(Object.fromEntries(req.nextUrl.searchParams));
  if (!r.success) throw invalid(fieldsOf(r.error.issues));
  return readHistory(await getBankClient(), {
    accountNumber,
    from: r.data.from,
    to: r.data.to,
    order: r.data.order,
  });
});
