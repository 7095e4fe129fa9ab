// GET|POST /api/auth/* - next-auth: CSRF token, credentials sign-in, session read and update, sign-out
// (a cross-site POST is refused first, as on every API route). A sign-out whose session could not
// be revoked answers 503 and keeps the cookie: the session is still open, and the page says so.

import { type NextRequest, NextResponse } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options.ts";
import { withSignOutOutcome } from "@/lib/auth/sign-out.ts";
import { errorBody } from "@/lib/route-kit/errors.ts";
import { refuseCrossSite } from "@/lib/route-kit/same-origin.ts";

type Ctx = { params: Promise<{ nextauth: string[] }> };

const SIGN_OUT_FAILED = errorBody(
  "sign_out_failed",
  "You are still signed in: the sign-out could not be recorded. Try again in a moment; until it works, this session stays open.",
);

async function handler(req: NextRequest, ctx: Ctx): Promise<Response> {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const { result, failed } = await withSignOutOutcome(
    () => NextAuth(req, ctx, authOptions()) as Promise<Response>,
  );
  if (!failed) return result;
  return NextResponse.json(SIGN_OUT_FAILED, {
    status: 503,
    headers: { "Cache-Control": "no-store", "Retry-After": "5" },
  });
}

export { handler as GET, handler as POST };
