// POST /api/account-link {token} - what a one-time link e-mailed to a person is for (an invitation,
// a reset, a lost device's removal), without using it; no session (the person has none yet).
// Counted under the sign-in's per-address rate limit, so tokens cannot be guessed here.

import { inspectCredentialLink } from "@/lib/auth/credential-links.ts";
import { allowSignInAttempt, clientIp } from "@/lib/auth/throttle.ts";
import { AccountLinkBody, type AccountLinkInfo } from "@/lib/dashboard-api/admin.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { RouteError } from "@/lib/route-kit/errors.ts";
import { parsePublicBody, withPublicRoute } from "@/lib/route-kit/route.ts";

export const POST = withPublicRoute(async ({ req }): Promise<AccountLinkInfo> => {
  const body = await parsePublicBody(req, AccountLinkBody);
  const db = await getDashboardDb();
  if (!(await allowSignInAttempt(db, clientIp(req.headers))))
    throw new RouteError(
      429,
      "rate_limited",
      "Too many attempts from this address. Wait a minute and try again.",
    );
  return inspectCredentialLink(db, body.token);
});
