// The three statement downloads share one handler: the query checked, the accounts the caller may
// read (404 for any other: the customer's, and of those the integration token's), then the file
// streamed. A signed-in user or an integration token (Authorization: Bearer) may call them.
import "server-only";
import type { NextRequest } from "next/server";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { sessionOrToken } from "../integration/tokens.ts";
import { businessToday } from "../route-kit/params.ts";
import { withRoute } from "../route-kit/route.ts";
import {
  ownedAccounts,
  parseStatementQuery,
  prepareStatement,
  type StatementFormat,
  statementResponse,
} from "./export.ts";

async function download(
  req: NextRequest,
  requestId: string,
  format: StatementFormat,
  allowed?: readonly string[],
): Promise<Response> {
  const q = parseStatementQuery(req.nextUrl.searchParams, format, businessToday());
  const bank = await getBankClient();
  const names = await ownedAccounts(bank, q.accounts, allowed);
  const prepared = await prepareStatement(bank, format, q, { names, timeZone: config().timeZone });
  return statementResponse(prepared, requestId);
}

export function statementRoute(format: StatementFormat) {
  return sessionOrToken(
    withRoute(async ({ req, requestId }) => download(req, requestId, format), {
      permission: "accounts.read",
    }),
    ({ req, requestId, token }) => download(req, requestId, format, token.accounts),
  );
}
