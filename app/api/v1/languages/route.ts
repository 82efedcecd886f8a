import { createHash } from "node:crypto";
import { serveRoute } from "@/lib/api/route";
import type { AvailabilityView } from "@/lib/availability";
import { validate } from "@/lib/kit/body";
import { listLanguages } from "@/lib/languages/listing";
import { LanguagesQuery } from "@/lib/languages/schemas";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/**
 * GET /api/v1/languages — the languages translate, STT and TTS serve, with providers, models and quality per pair, STT
 * models and formats, TTS voices. Filters: capability, provider, source (see lib/languages/listing.ts).
 * Cacheable per caller: ETag + Cache-Control private; If-None-Match → 304.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/languages", {
  GET: async ({ req }) => {
    const params = new URL(req.url).searchParams;
    const query = validate(
      LanguagesQuery,
      Object.fromEntries(["capability", "provider", "source"].filter((k) => params.has(k)).map((k) => [k, params.get(k)])),
      "query",
    );
    const view = await services().availability.view(catalogueSubjects());
    const { body, etag } = rendered(query, view);
    const headers = { "Content-Type": "application/json", ETag: etag, "Cache-Control": "private, max-age=300" };
    const ifNoneMatch = req.headers.get("if-none-match");
    if (ifNoneMatch?.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(streamOf(body), { status: 200, headers });
  },
});

/**
 * The memoised bytes as a response body, shared, not copied: `new Response(bytes)` copies its body (the Fetch standard
 * says so), ≈140 kB a response for the unfiltered listing. At hundreds of requests a second those copies, waiting
 * outside the heap for the garbage collector, raised the server's RSS by ≈70 MB under the benchmark's load, and they
 * and the collections they forced were more than half of the route's CPU (docs/benchmark.md "Memory"). The stream hands
 * the same bytes to the socket every time; nothing writes to them. (Next.js sends a route's body chunked either way: it
 * drops a Content-Length the handler sets.)
 */
function streamOf(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/*
 * The listing depends only on the query, the availability view (its version is part of the key) and configuration
 * fixed at start-up (the model map, HF_ASR_MODEL), so
 * each distinct query's body (~140 kB unfiltered) and ETag are computed once, not per request — building, serialising
 * and hashing it cost several ms of CPU a request (bench/results). Bounded: at most MEMO_MAX distinct queries are
 * kept, oldest out.
 */
const MEMO_MAX = 64;
const memo = new Map<string, { body: Uint8Array<ArrayBuffer>; etag: string }>();

function rendered(query: LanguagesQuery, view: AvailabilityView): { body: Uint8Array<ArrayBuffer>; etag: string } {
  const memoKey = `${query.capability ?? ""}|${query.provider ?? ""}|${query.source ?? ""}|${view.version}`;
  let hit = memo.get(memoKey);
  if (!hit) {
    const body = JSON.stringify(listLanguages(query, undefined, undefined, view));
    // Kept as UTF-8 bytes: encoding the string again on every response was measurable too.
    hit = { body: new TextEncoder().encode(body), etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(memoKey, hit);
  }
  return hit;
}
