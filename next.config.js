// Browser security headers on every page and API response (static assets excepted): set here
// rather than in a proxy (middleware), which would run on every request only to add constant
// headers. The same-origin check on state-changing API calls lives in the route handlers
// (lib/api/same-origin.ts).
import { PHASE_DEVELOPMENT_SERVER } from "next/constants.js";

/** `dev`: the development server (`next dev`), whatever NODE_ENV says; builds are production. */
const securityHeaders = (dev) => [
  {
    key: "Content-Security-Policy",
    value: [
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
    ].join("; "),
  },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

const HSTS = { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" };

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that the bundler must not rewrite (else `next build` fails on a misleading CREATE SCHEMA error).
  serverExternalPackages: ["@electric-sql/pglite", "argon2", "pg"],
  poweredByHeader: false,
  // A separate build folder lets a test build run beside a developer's own.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
};

export default function config(phase) {
  const dev = phase === PHASE_DEVELOPMENT_SERVER;
  return {
    ...nextConfig,
    async headers() {
      const source = "/((?!_next/static|_next/image|favicon.ico).*)";
      return [
        { source, headers: securityHeaders(dev) },
        // HSTS only where the browser reached the dashboard over https (the TLS proxy in front says
        // so): over plain http it would tell a browser to expect https from a server that has none.
        { source, has: [{ type: "header", key: "x-forwarded-proto", value: "https" }], headers: [HSTS] },
      ];
    },
  };
}
