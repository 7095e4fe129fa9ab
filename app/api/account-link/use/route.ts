// POST /api/account-link/use {token, newPassword, confirmPassword | currentPassword} - uses a
// one-time link once: the person sets their own password (an invitation or a reset), or removes
// their lost two-step device with their password; every session of theirs ends. No session;
// counted under the sign-in's per-address rate limit.

import { inspectCredentialLink, redeemCredentialLink } from "@/lib/auth/credential-links.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { allowSignInAttempt, clientIp } from "@/lib/auth/throttle.ts";
import { findUserByEmail } from "@/lib/auth/users.ts";
import { UseAccountLinkBody, type UseAccountLinkResponse } from "@/lib/dashboard-api/admin.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { invalid, RouteError } from "@/lib/route-kit/errors.ts";
import { parsePublicBody, withPublicRoute } from "@/lib/route-kit/route.ts";

export const POST = withPublicRoute(async ({ req }): Promise<UseAccountLinkResponse> => {
  const body = await parsePublicBody(req, UseAccountLinkBody);
  const db = await getDashboardDb();
  const ip = clientIp(req.headers);
  if (!(await allowSignInAttempt(db, ip)))
    throw new RouteError(
      429,
      "rate_limited",
      "Too many attempts from this address. Wait a minute and try again.",
    );
  const link = await inspectCredentialLink(db, body.token);
  if (link.purpose === "totp_removal" && !body.currentPassword)
    throw invalid([{ field: "currentPassword", message: "enter your password" }], "Enter your password.");
  if (link.purpose !== "totp_removal" && !body.newPassword)
    throw invalid([{ field: "newPassword", message: "choose a password" }], "Choose a password.");
  const out = await redeemCredentialLink(db, { ...body, ip });
  const user = await findUserByEmail(db, out.email);
  if (user) forgetCachedUser(user.id);
  return out;
});
