// The three statement downloads share one handler: the query checked, the accounts the caller may
// read (404 for any other), then the file streamed.
import "server-only";
import { businessToday } from "../api/params.ts";
import { withRoute } from "../api/route.ts";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import {
  ownedAccounts,
  parseStatementQuery,
  prepareStatement,
  type StatementFormat,
  statementResponse,
} from "./export.ts";

export function statementRoute(format: StatementFormat) {
  return withRoute(
    async ({ req, requestId }) => {
      const q = parseStatementQuery(req.nextUrl.searchParams, format, businessToday());
      const bank = await getBankClient();
      const names = await ownedAccounts(bank, q.accounts);
      const prepared = await prepareStatement(bank, format, q, { names, timeZone: config().timeZone });
      return statementResponse(prepared, requestId);
    },
    { permission: "accounts.read" },
  );
}
