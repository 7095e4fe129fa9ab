// Runs before every page and API route (Next 16's proxy): browser security headers (CSP, HSTS,
// no framing) and, for state-changing /api requests, a same-origin check (DESIGN.md, Browser
// security). Requests without Origin or Sec-Fetch-Site come from non-browser clients, which
// cannot carry a victim's cookies across sites, so they pass.
import { type NextRequest, NextResponse } from "next/server";

const dev = process.env.NODE_ENV !== "production";

const CSP = [
  "default-src 'self'",
  // Next's bootstrap scripts are inline; eval only in development (React's debugging aids).
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": CSP,
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function crossOrigin(req: NextRequest): boolean {
  const origin = req.headers.get("origin");
  if (origin) {
    const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  const site = req.headers.get("sec-fetch-site");
  return !!site && site !== "same-origin" && site !== "none";
}

export function proxy(req: NextRequest) {
  if (req.nextUrl.pathname.startsWith("/api/") && !SAFE_METHODS.has(req.method) && crossOrigin(req)) {
    const res = NextResponse.json(
      { error: { code: "forbidden", message: "Cross-site requests are not accepted." } },
      { status: 403 },
    );
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v);
    return res;
  }
  const res = NextResponse.next();
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
