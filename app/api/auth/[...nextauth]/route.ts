// GET|POST /api/auth/* - next-auth: CSRF token, credentials sign-in, session read and update, sign-out
// (a cross-site POST is refused first, as on every API route)

import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { refuseCrossSite } from "@/lib/api/same-origin.ts";
import { authOptions } from "@/lib/auth/options.ts";

type Ctx = { params: Promise<{ nextauth: string[] }> };

const handler = (req: NextRequest, ctx: Ctx) => refuseCrossSite(req) ?? NextAuth(req, ctx, authOptions());

export { handler as GET, handler as POST };
