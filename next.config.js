/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that the bundler must not rewrite (STACK.md, pitfall 1).
  serverExternalPackages: ["@electric-sql/pglite", "argon2", "pg"],
  poweredByHeader: false,
  // A separate build folder lets a test build run beside a developer's own.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
};

export default nextConfig;
