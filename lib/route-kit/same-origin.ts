// The same-origin check on state-changing API requests (every /api route handler applies it
// first: `withRoute`, `withPublicRoute` and the next-auth handler). A browser sends Origin or
// Sec-Fetch-Site with a cross-site POST; without either the request comes from a non-browser
// client, which cannot carry a victim's cookies across sites, so it passes. Safe methods
// (GET, HEAD, OPTIONS) change nothing and are never refused.

import { requestOrigin } from "../auth/client-address.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_BODY = {
  error: { code: "forbidden", message: "Cross-site requests are not accepted." },
} as const;

/**
 * The dashboard's own origin as this request reached it: scheme, host and port. A trusted proxy in
 * front says what the browser used (X-Forwarded-Proto and -Host, believed only from a proxy named
 * in TRUSTED_PROXIES); otherwise the request's Host over plain http.
 */
function ownOrigin(req: Pick<Request, "headers" | "url">): string | null {
  if (!req.headers.get("host")) return new URL(req.url).origin;
  return requestOrigin(req.headers);
}

// An https page may not post to an http dashboard (nor the reverse): the scheme and the port are
// part of the origin as much as the host is.
function crossOrigin(req: Pick<Request, "headers" | "url">): boolean {
  const origin = req.headers.get("origin");
  if (origin) {
    try {
      return new URL(origin).origin !== ownOrigin(req);
    } catch {
      return true;
    }
  }
  const site = req.headers.get("sec-fetch-site");
  return !!site && site !== "same-origin" && site !== "none";
}

/** A cross-site state-changing request: the 403 to answer it with; otherwise null. */
export function refuseCrossSite(req: Pick<Request, "method" | "headers" | "url">): Response | null {
  if (SAFE_METHODS.has(req.method) || !crossOrigin(req)) return null;
  return new Response(JSON.stringify(CROSS_SITE_BODY), {
    status: 403,
    headers: { "Content-Type": "application/json" },
  });
}
