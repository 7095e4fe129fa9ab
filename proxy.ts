// Every page gets a Content-Security-Policy with a nonce of its own: Next reads the nonce from
// the request's policy and puts it on each script it renders (its bootstrap is inline), so a
// script someone managed to inject has no nonce and does not run. A nonce must be fresh per
// response, which a constant header in next.config.js cannot give; the other security headers
// (and the API's policy) stay there. Pages are rendered per request (app/layout.tsx) to carry it.
import { type NextRequest, NextResponse } from "next/server";

/** The page policy: inline scripts only with this response's nonce, files only from this origin. */
export function pagePolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    // No 'strict-dynamic': it would let any running script add an inline script of its own, so
    // text that reached a script element through the DOM would run. The chunks Next's runtime
    // loads come from this origin ('self'), where nosniff keeps every other answer from running as
    // a script. eval only in development (React's debugging aids).
    `script-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-eval'" : ""}`,
    // Styles keep 'unsafe-inline': React renders style attributes (bar widths, Next's route
    // announcer), which a nonce cannot cover; a style cannot run script, and connect-src and
    // img-src 'self' leave it nowhere to send what it reads.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const policy = pagePolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages and public files; not the API (next.config.js gives it a policy of its own) nor
      // Next's build files. A prefetch is matched too: it can be answered with the whole page,
      // scripts included, and a page without its policy would run whatever was injected into it.
      source: "/((?!api/|_next/static|_next/image).*)",
    },
  ],
};
