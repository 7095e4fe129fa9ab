// Browser security headers. A page's Content-Security-Policy carries a nonce fresh for each
// response, so the proxy (proxy.ts) sets it; the API's answers (JSON, CSV, event streams and
// next-auth's own pages) run no script and get a constant policy here that allows nothing. The
// other headers are constant and set here. The same-origin check on state-changing API calls lives
// in the route handlers (lib/route-kit/same-origin.ts).

const API_POLICY = { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" };

const securityHeaders = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** On every file, Next's build files and public/ included: no type guessed from content. */
const NOSNIFF = { key: "X-Content-Type-Options", value: "nosniff" };

const HSTS = { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" };

const startBuild = process.env.NEXT_START_BUILD === "1";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that the bundler must not rewrite (else `next build` fails on a misleading CREATE SCHEMA error).
  serverExternalPackages: ["@electric-sql/pglite", "argon2", "pg"],
  poweredByHeader: false,
  // A separate build folder lets a test build run beside a developer's own.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  // `npm start` builds with NEXT_START_BUILD=1: type checking is `npm run typecheck`'s job (run by
  // `npm test` and CI), and repeating it made a newcomer's first start a minute longer.
  typescript: { ignoreBuildErrors: startBuild },
  // Writing the compiler's cache took a quarter of a first start's build, for a later rebuild
  // that a start seldom needs.
  experimental: { turbopackFileSystemCacheForBuild: !startBuild },
};

export default function config() {
  return {
    ...nextConfig,
    async headers() {
      const source = "/((?!_next/static|_next/image|favicon.ico).*)";
      return [
        { source: "/:path*", headers: [NOSNIFF] },
        { source, headers: securityHeaders },
        { source: "/api/:path*", headers: [API_POLICY] },
        // HSTS only where the browser reached the dashboard over https (the TLS proxy in front says
        // so): over plain http it would tell a browser to expect https from a server that has none.
        { source, has: [{ type: "header", key: "x-forwarded-proto", value: "https" }], headers: [HSTS] },
      ];
    },
  };
}
