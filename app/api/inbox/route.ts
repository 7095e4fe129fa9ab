// GET /api/inbox?view=items|count - what waits for the signed-in person that they may act on,
// oldest first (InboxResponse), or only its counts (InboxCount, for the navigation and the home
// page). Decisions go to the routes of each kind, which enforce every control.
import { createHash } from "node:crypto";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { InboxAnswer, InboxQuery } from "@/lib/dashboard-api/inbox.ts";
import { readInbox } from "@/lib/inbox/read.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db, user, query }) => {
    const inbox = await readInbox(db, getBankClient, { id: user.id, role: user.role });
    if (query.view === "count") {
      const { items: _i, notices: _n, statementNotices: _s, asOf: _a, ...count } = inbox;
      return count;
    }
    return inbox;
  },
  {
    query: InboxQuery,
    response: InboxAnswer,
    // Polled by every open page: an unchanged answer is a 304 without a body.
    version: (answer) => {
      const { asOf: _a, ...rest } = answer as { asOf?: string };
      return { tag: createHash("sha256").update(JSON.stringify(rest)).digest("base64url") };
    },
  },
);
