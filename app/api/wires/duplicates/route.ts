// GET /api/wires/duplicates?beneficiary_account_number&amountCents - wires to the same account
// for the same amount prepared in the last 7 days (WireDuplicatesResponse), for a warning.

import { WireDuplicatesQuery, WireDuplicatesResponse } from "@/lib/dashboard-api/wires.ts";
import { recentSameWires } from "@/lib/payments/wire-duplicates.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db, query }) => ({
    drafts: await recentSameWires(db, query.beneficiary_account_number, query.amountCents),
  }),
  { permission: "wires.create", query: WireDuplicatesQuery, response: WireDuplicatesResponse },
);
