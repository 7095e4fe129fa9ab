// The signed-in user for server components and layouts: null when there is no session, it has
// ended (idle, past 12 hours, or a password change or reset since) or the account was disabled.
import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { SessionUser } from "../dashboard-api/index.ts";
import { getDashboardDb } from "../db/client.ts";
import { checkSessionCookie, currentUser, sessionCookieName } from "./session-token.ts";

export async function getSessionUser(): Promise<SessionUser | null> {
  const jar = await cookies();
  const check = await checkSessionCookie(jar.get(sessionCookieName())?.value);
  if (!check.ok) return null;
  return currentUser(await getDashboardDb(), check.claims.sub, check.claims.signedInAt);
}

/** The signed-in user of a page; without one, sign-in, which comes back to `path` after. */
export async function pageUser(path: string): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  return user;
}
