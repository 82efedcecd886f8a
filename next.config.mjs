/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded at run time from node_modules rather than bundled: PGlite ships WASM and data files it reads from disk.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "ioredis"],
  poweredByHeader: false,
  // Types are checked by `npm run typecheck` (part of `npm test` and CI), once for app, lib, scripts and tests alike.
  typescript: { ignoreBuildErrors: true },
  // Unknown-path 404s and trailing-slash redirects must not bypass the API error envelope.
  skipTrailingSlashRedirect: true,
  // Security headers on every response. The Content-Security-Policy of the pages needs a per-request nonce, so it is
  // set in proxy.ts (policy: lib/portal/csp.ts), not here.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), geolocation=(), payment=(), usb=(), microphone=(self)" },
        ],
      },
    ];
  },
};

export default nextConfig;
