// The same-origin check on state-changing API requests (every /api route handler applies it
// first: `withRoute`, `withPublicRoute` and the next-auth handler). A browser sends Origin or
// Sec-Fetch-Site with a cross-site POST; without either the request comes from a non-browser
// client, which cannot carry a victim's cookies across sites, so it passes. Safe methods
// (GET, HEAD, OPTIONS) change nothing and are never refused.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_BODY = {
  error: { code: "forbidden", message: "Cross-site requests are not accepted." },
} as const;

function crossOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin) {
    const host = headers.get("x-forwarded-host") ?? headers.get("host");
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  const site = headers.get("sec-fetch-site");
  return !!site && site !== "same-origin" && site !== "none";
}

/** A cross-site state-changing request: the 403 to answer it with; otherwise null. */
export function refuseCrossSite(req: Pick<Request, "method" | "headers">): Response | null {
  if (SAFE_METHODS.has(req.method) || !crossOrigin(req.headers)) return null;
  return new Response(JSON.stringify(CROSS_SITE_BODY), {
    status: 403,
    headers: { "Content-Type": "application/json" },
  });
}
