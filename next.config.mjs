import { readFileSync } from "node:fs";

/**
 * Every response header the API documents, for Access-Control-Expose-Headers: a browser page may read only the response
 * headers named there (besides the CORS-safelisted ones). Read from the OpenAPI document (docs/openapi.json, generated
 * from the route manifest and kept equal to it by a unit test), the one list of what each operation answers with, so a
 * header added to an operation is exposed with it; an API test checks every header the running API sends is exposed.
 */
function documentedResponseHeaders() {
  const doc = JSON.parse(readFileSync(new URL("./docs/openapi.json", import.meta.url), "utf8"));
  const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
  const responses = [...operations.flatMap((op) => Object.values(op.responses ?? {})), ...Object.values(doc.components?.responses ?? {})];
  const safelisted = new Set(["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"]);
  const names = new Set(responses.flatMap((r) => Object.keys(r.headers ?? {})).filter((name) => !safelisted.has(name.toLowerCase())));
  return [...names].sort();
}

const API_CORS_HEADERS = [
  { key: "Access-Control-Allow-Origin", value: "*" },
  { key: "Access-Control-Allow-Methods", value: "GET, POST, DELETE, OPTIONS" },
  // Cache-Control: no-cache bypasses the translation cache, so a browser page can ask for a fresh translation.
  { key: "Access-Control-Allow-Headers", value: "Authorization, Content-Type, Accept, X-Request-Id, If-None-Match, Cache-Control" },
  { key: "Access-Control-Expose-Headers", value: documentedResponseHeaders().join(", ") },
  { key: "Access-Control-Max-Age", value: "7200" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded at run time from node_modules rather than bundled. PGlite ships WASM and data files it reads from disk (lib/db
  // imports it with turbopackIgnore, so that no serverless function carries it). OpenTelemetry and pino keep their
  // registrations on globalThis, and one copy of the SDK serves both the start-up hook and the routes.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "ioredis",
    "pino",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/sdk-metrics",
    "@opentelemetry/exporter-prometheus",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
    "@opentelemetry/exporter-metrics-otlp-http",
    "@opentelemetry/exporter-metrics-otlp-proto",
    // The WebAssembly audio decoders (lib/providers/decode.ts, imported on first use): their web-worker shim imports a
    // module by a name known only at run time, which a bundler cannot follow; Node.js loads them from node_modules.
    "opus-decoder",
    "mpg123-decoder",
    "@wasm-audio-decoders/flac",
    "@wasm-audio-decoders/common",
    "@eshaz/web-worker",
    "codec-parser",
    // The Opus encoder (lib/speech/encode.ts, imported on first use) reads its WebAssembly file from beside its script.
    "opusscript",
  ],
  poweredByHeader: false,
  // `next start` would load every page and route at boot; the API's first translation waited for the whole portal.
  // Each route now loads on its first request (docs/benchmark.md: cold start).
  experimental: { preloadEntriesOnStart: false },
  // Markdown imported by a page (the guide at /docs/guide) is rendered to HTML when the site is built, not per request.
  turbopack: { rules: { "*.md": { loaders: ["./app/docs/guide/markdown-loader.mjs"], as: "*.js" } } },
  // Types are checked by `npm run typecheck` (part of `npm test` and CI), once for app, lib, scripts and tests alike.
  typescript: { ignoreBuildErrors: true },
  // Unknown-path 404s and trailing-slash redirects must not bypass the API error envelope.
  skipTrailingSlashRedirect: true,
  // Security headers on every response. The Content-Security-Policy of the pages needs a per-request nonce, so it is
  // set in proxy.ts (policy: lib/portal/csp.ts), not here.
  async headers() {
    return [
      // CORS (docs/security.md): the API is called from any origin, without credentials — it authenticates by the
      // Authorization header, never by cookie, so a cross-origin page gains nothing it could not do with curl. Browsers
      // get the preflight answered (Next.js answers OPTIONS for every route handler) and may read the rate-limit and
      // request-id headers. The portal (pages, /api/auth/*, server actions) sends no CORS headers: same origin only.
      { source: "/api/v1/:path*", headers: API_CORS_HEADERS },
      // The other protocols' surfaces (LibreTranslate, DeepL): the same terms; their key is never a cookie either.
      { source: "/compat/:path*", headers: API_CORS_HEADERS },
      { source: "/health", headers: API_CORS_HEADERS },
      { source: "/health/:path*", headers: API_CORS_HEADERS },
      { source: "/metrics", headers: API_CORS_HEADERS },
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
