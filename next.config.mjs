/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded at run time from node_modules rather than bundled: PGlite ships WASM and data files it reads from disk.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "ioredis"],
  poweredByHeader: false,
  // Types are checked by `npm run typecheck` (part of `npm test` and CI), once for app, lib, scripts and tests alike.
  typescript: { ignoreBuildErrors: true },
  // Unknown-path 404s and trailing-slash redirects must not bypass the API error envelope.
  skipTrailingSlashRedirect: true,
};

export default nextConfig;
