// GET /api/wire-summaries?accountNumber&date&direction (or ?uniqueId) - e-wire summaries from the bank

import { getBankClient } from "@/lib/bank-client/index.ts";
import { WireSummariesQuery, WireSummariesResponse } from "@/lib/dashboard-api/incoming-wires.ts";
import { readWireSummaries } from "@/lib/incoming-wires/summaries.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ query }) => readWireSummaries(await getBankClient(), query), {
  permission: "accounts.read",
  query: WireSummariesQuery,
  response: WireSummariesResponse,
});
