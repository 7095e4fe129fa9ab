/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that the bundler must not rewrite (STACK.md, pitfall 1).
  serverExternalPackages: ["@electric-sql/pglite", "argon2", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
