/**
 * Content-Security-Policy of the portal pages (set per request by proxy.ts, with a fresh nonce).
 *  - script-src: only scripts carrying this response's nonce, and what they load ('strict-dynamic'): Next.js puts the
 *    nonce on its own scripts and inline RSC payloads; swagger-ui's chunk is loaded by them. No 'unsafe-inline', no
 *    'unsafe-eval' in production (React needs eval only in development, for its error overlay).
 *  - style-src 'unsafe-inline': Swagger UI and React style attributes set inline styles; styles cannot run code.
 *  - img-src data: (Swagger UI's icons are data: SVGs), media-src blob: (the playground plays TTS audio from a blob),
 *    connect-src 'self' (the API and next-auth are same-origin), frame-ancestors 'none' (no framing: clickjacking).
 */
export function contentSecurityPolicy(nonce: string, development = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
