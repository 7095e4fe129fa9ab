// GET|POST /api/auth/* - next-auth: CSRF token, credentials sign-in, session read and update, sign-out

import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

type Ctx = { params: Promise<{ nextauth: string[] }> };

const handler = (req: NextRequest, ctx: Ctx) => NextAuth(req, ctx, authOptions());

export { handler as GET, handler as POST };
