import { createHash } from "node:crypto";

/**
 * Conditional GET for bodies computed once and sent many times (the language listing, the OpenAPI document, the guide's
 * Markdown): the bytes, a strong ETag over them, and the answer to a request — 304 with no body when its
 * `If-None-Match` names the tag, else the bytes. A strong tag because the bytes are identical whenever the tag is.
 */
export interface FixedBody {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** The body of `content`: text (encoded to UTF-8) or the bytes themselves. */
export function fixedBody(content: string | Uint8Array<ArrayBuffer>): FixedBody {
  // The tag hashes the encoded bytes: hashing the string would encode its ≈300 kB to UTF-8 a second time.
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return { bytes, etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"` };
}

/** RFC 9110 §13.1.2: `*`, or any listed tag equal by weak comparison (a `W/` prefix is ignored for GET and HEAD). */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * The response for `req`: 304 (headers only) when the caller already holds these bytes, else 200 with them. The body is
 * a stream over the same bytes, not `new Response(bytes)`, which copies its body on every response (the Fetch standard
 * says so): for a body of ≈140–270 kB sent hundreds of times a second, those copies were most of the route's CPU and
 * ≈70 MB of resident memory under load (docs/benchmark.md "Memory").
 */
export function conditionalResponse(req: Request, body: FixedBody, headers: Record<string, string>): Response {
  const all = { ...headers, ETag: body.etag };
  if (ifNoneMatchHits(req.headers.get("if-none-match"), body.etag)) return new Response(null, { status: 304, headers: all });
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.bytes);
        controller.close();
      },
    }),
    { status: 200, headers: all },
  );
}

/**
 * How long a cache may keep a read whose bytes change only between deploys or when availability changes (the ETag
 * changes with them). Public documents: a browser 5 minutes, a shared cache (CDN) an hour, and a stale copy served for
 * a day while it revalidates in the background. The key's own listing: its client only (it answers per key), 5 minutes.
 * docs/deploy.md "Cacheable reads" gives the reasons.
 */
export const PUBLIC_READ_CACHE = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";
export const PRIVATE_READ_CACHE = "private, max-age=300";
